{{/*
Everything one deployable needs: ConfigMap, Deployment, Service, HorizontalPodAutoscaler,
PodDisruptionBudget and NetworkPolicy. Call with (list $root "name" $svc); services.yaml does so
for each enabled entry of .Values.services.
*/}}
{{- define "qm.service" -}}
{{- $root := index . 0 }}
{{- $name := index . 1 }}
{{- $svc := index . 2 }}
{{- $fullname := include "qm.componentName" (list $root $name) }}
{{- $config := include "qm.serviceConfig" (list $root $name $svc) }}
{{- $secretKeys := include "qm.secretKeys" (list $root $svc) | fromYamlArray }}
{{- $portName := ternary "grpc" "http" (eq $svc.kind "grpc") }}
{{- $callers := include "qm.callersOf" (list $root $name) | fromYamlArray }}
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: {{ $fullname }}
  labels:
    {{- include "qm.labels" (list $root $name) | nindent 4 }}
data:
  {{- $config | nindent 2 }}
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ $fullname }}
  labels:
    {{- include "qm.labels" (list $root $name) | nindent 4 }}
spec:
  {{- if not $svc.autoscaling.enabled }}
  replicas: {{ $svc.replicas }}
  {{- end }}
  revisionHistoryLimit: 5
  strategy:
    type: RollingUpdate
    rollingUpdate:
      maxUnavailable: 0
      maxSurge: 25%
  selector:
    matchLabels:
      {{- include "qm.selectorLabels" (list $root $name) | nindent 6 }}
  template:
    metadata:
      labels:
        {{- include "qm.labels" (list $root $name) | nindent 8 }}
      annotations:
        checksum/config: {{ $config | sha256sum }}
        {{- if not $root.Values.secrets.existingSecret }}
        checksum/secret: {{ include "qm.secretData" $root | sha256sum }}
        {{- end }}
        {{- if $svc.metricsPort }}
        {{- /* On the pods (each replica's own counts), not also on the Service: one scrape per pod. */}}
        prometheus.io/scrape: "true"
        prometheus.io/port: {{ $svc.metricsPort | quote }}
        prometheus.io/path: /metrics
        {{- end }}
        {{- with $svc.podAnnotations }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
    spec:
      serviceAccountName: {{ include "qm.serviceAccountName" $root }}
      automountServiceAccountToken: false
      enableServiceLinks: false
      terminationGracePeriodSeconds: 30
      {{- with $root.Values.global.imagePullSecrets }}
      imagePullSecrets:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      securityContext:
        {{- include "qm.podSecurityContext" 10001 | nindent 8 }}
      topologySpreadConstraints:
        - maxSkew: 1
          topologyKey: kubernetes.io/hostname
          whenUnsatisfiable: ScheduleAnyway
          labelSelector:
            matchLabels:
              {{- include "qm.selectorLabels" (list $root $name) | nindent 14 }}
      {{- with ($svc.nodeSelector | default $root.Values.global.nodeSelector) }}
      nodeSelector:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with ($svc.tolerations | default $root.Values.global.tolerations) }}
      tolerations:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with ($svc.affinity | default $root.Values.global.affinity) }}
      affinity:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      containers:
        - name: {{ $name }}
          image: {{ include "qm.image" (list $root $svc) | quote }}
          imagePullPolicy: {{ $svc.image.pullPolicy | default $root.Values.global.image.pullPolicy }}
          ports:
            - name: {{ $portName }}
              containerPort: {{ $svc.port }}
              protocol: TCP
            {{- if $svc.metricsPort }}
            - name: metrics
              containerPort: {{ $svc.metricsPort }}
              protocol: TCP
            {{- end }}
          envFrom:
            - configMapRef:
                name: {{ $fullname }}
          {{- if $secretKeys }}
          env:
            {{- range $key := $secretKeys }}
            - name: {{ $key }}
              valueFrom:
                secretKeyRef:
                  name: {{ include "qm.secretNameOf" (list $root $key) }}
                  key: {{ $key }}
                  {{- /* Generated keys and connection URLs must exist; the others are optional features. */}}
                  optional: {{ not (or (has $key $root.Values.secrets.generate) (has $key (list "MONGO_URL" "NATS_URL"))) }}
            {{- end }}
          {{- end }}
          {{- if eq $svc.kind "grpc" }}
          startupProbe:
            grpc: { port: {{ $svc.port }} }
            periodSeconds: 2
            failureThreshold: 60
          {{- /* "liveness" stays SERVING through a database outage ("" does not); a client stuck while
                 the database answers others makes the process exit instead (docs/adr/015). */}}
          livenessProbe:
            grpc: { port: {{ $svc.port }}, service: liveness }
            periodSeconds: 10
            timeoutSeconds: 2
            failureThreshold: 3
          readinessProbe:
            grpc: { port: {{ $svc.port }} }
            periodSeconds: 5
            timeoutSeconds: 2
            failureThreshold: 2
          {{- else }}
          startupProbe:
            httpGet: { path: /healthz, port: {{ $portName }} }
            periodSeconds: 2
            failureThreshold: 60
          livenessProbe:
            httpGet: { path: /healthz, port: {{ $portName }} }
            periodSeconds: 10
            timeoutSeconds: 2
            failureThreshold: 3
          readinessProbe:
            httpGet: { path: /readyz, port: {{ $portName }} }
            periodSeconds: 5
            timeoutSeconds: 2
            failureThreshold: 2
          {{- end }}
          {{- with $svc.preStopSleepSeconds }}
          {{- /* The endpoint is taken out of every node's Service rules (kube-proxy, the ingress) a moment
                 after the pod starts terminating; until then new connections still arrive, so the process
                 is signalled only after this pause (an exec: the sleep action needs Kubernetes 1.30). */}}
          lifecycle:
            preStop:
              exec:
                command: ["sleep", {{ . | quote }}]
          {{- end }}
          resources:
            {{- toYaml $svc.resources | nindent 12 }}
          securityContext:
            {{- include "qm.containerSecurityContext" true | nindent 12 }}
          volumeMounts:
            - name: tmp
              mountPath: /tmp
      volumes:
        - name: tmp
          emptyDir:
            sizeLimit: 64Mi
---
apiVersion: v1
kind: Service
metadata:
  name: {{ $fullname }}
  labels:
    {{- include "qm.labels" (list $root $name) | nindent 4 }}
spec:
  type: ClusterIP
  {{- if eq $svc.kind "grpc" }}
  # Headless: the name resolves to every ready pod, and the gRPC clients balance their calls over
  # them (round robin) instead of riding one long-lived connection to one pod (docs/adr/025).
  clusterIP: None
  {{- end }}
  selector:
    {{- include "qm.selectorLabels" (list $root $name) | nindent 4 }}
  ports:
    - name: {{ $portName }}
      port: {{ $svc.port }}
      targetPort: {{ $portName }}
      protocol: TCP
    {{- if $svc.metricsPort }}
    # Not routed by the ingress (it names the `http` port only).
    - name: metrics
      port: {{ $svc.metricsPort }}
      targetPort: metrics
      protocol: TCP
    {{- end }}
{{- if $svc.autoscaling.enabled }}
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: {{ $fullname }}
  labels:
    {{- include "qm.labels" (list $root $name) | nindent 4 }}
spec:
  scaleTargetRef:
    apiVersion: apps/v1
    kind: Deployment
    name: {{ $fullname }}
  minReplicas: {{ $svc.autoscaling.min }}
  maxReplicas: {{ $svc.autoscaling.max }}
  metrics:
    - type: Resource
      resource:
        name: cpu
        target:
          type: Utilization
          averageUtilization: {{ $svc.autoscaling.targetCPU }}
{{- end }}
{{- if $svc.pdb.enabled }}
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: {{ $fullname }}
  labels:
    {{- include "qm.labels" (list $root $name) | nindent 4 }}
spec:
  minAvailable: {{ $svc.pdb.minAvailable }}
  selector:
    matchLabels:
      {{- include "qm.selectorLabels" (list $root $name) | nindent 6 }}
{{- end }}
{{- if $root.Values.networkPolicy.enabled }}
---
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  name: {{ $fullname }}
  labels:
    {{- include "qm.labels" (list $root $name) | nindent 4 }}
spec:
  podSelector:
    matchLabels:
      {{- include "qm.selectorLabels" (list $root $name) | nindent 6 }}
  policyTypes: [Ingress, Egress]
  ingress:
    {{- if eq $name "gateway" }}
    # The gateway is the public entry: from the ingress controller (networkPolicy.gatewayFrom) and the
    # `helm test` pod, else from anyone.
    - ports:
        - { port: {{ $svc.port }}, protocol: TCP }
      {{- with $root.Values.networkPolicy.gatewayFrom }}
      from:
        {{- toYaml . | nindent 8 }}
        - {{- include "qm.podsOf" (list $root (concat (list "test") $callers)) | nindent 10 }}
      {{- end }}
    {{- if $svc.metricsPort }}
    # Prometheus on the metrics port: from networkPolicy.metricsFrom, else from any source.
    - ports:
        - { port: {{ $svc.metricsPort }}, protocol: TCP }
      {{- with $root.Values.networkPolicy.metricsFrom }}
      from:
        {{- toYaml . | nindent 8 }}
      {{- end }}
    {{- end }}
    {{- else }}
    # Only the gateway, and the services that call this one, reach its gRPC port.
    - from:
        - {{- include "qm.podsOf" (list $root (concat (list "gateway") $callers)) | nindent 10 }}
      ports:
        - { port: {{ $svc.port }}, protocol: TCP }
    {{- end }}
  egress:
    {{- include "qm.dnsEgress" $root | nindent 4 }}
    {{- if $root.Values.nats.enabled }}
    - to:
        - {{- include "qm.podsOf" (list $root (list "nats")) | nindent 10 }}
      ports:
        - { port: 4222, protocol: TCP }
    {{- end }}
    {{- if $root.Values.mongodb.enabled }}
    - to:
        - {{- include "qm.podsOf" (list $root (list "mongodb")) | nindent 10 }}
      ports:
        - { port: 27017, protocol: TCP }
    {{- end }}
    {{- if and $svc.keycloak $root.Values.keycloak.enabled }}
    - to:
        - {{- include "qm.podsOf" (list $root (list "keycloak")) | nindent 10 }}
      ports:
        - { port: 8081, protocol: TCP }
    {{- end }}
    {{- if and (has "SMTP_URL" ($svc.secretEnv | default list)) $root.Values.smtp.enabled (not $root.Values.smtp.external.url) }}
    - to:
        - {{- include "qm.podsOf" (list $root (list "smtp")) | nindent 10 }}
      ports:
        - { port: 1025, protocol: TCP }
    {{- end }}
    {{- range $callee := $svc.calls | default list }}
    - to:
        - {{- include "qm.podsOf" (list $root (list $callee)) | nindent 10 }}
      ports:
        - { port: {{ (index $root.Values.services $callee).port }}, protocol: TCP }
    {{- end }}
    {{- if eq $name "gateway" }}
    {{- range $other, $o := $root.Values.services }}
    {{- if and $o.enabled (eq $o.kind "grpc") }}
    - to:
        - {{- include "qm.podsOf" (list $root (list $other)) | nindent 10 }}
      ports:
        - { port: {{ $o.port }}, protocol: TCP }
    {{- end }}
    {{- end }}
    {{- end }}
    {{- with $root.Values.networkPolicy.externalEgress }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
    {{- with (include "qm.otelEgress" $root) }}
    {{- . | nindent 4 }}
    {{- end }}
    {{- with $svc.egress }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
{{- end }}
{{- end }}
