{{/* Names, labels and the values every service's configuration is made of. */}}

{{- define "qm.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "qm.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{/* Name of a component's objects: <fullname>-<component>. Call with (list $root "component"). */}}
{{- define "qm.componentName" -}}
{{- $root := index . 0 }}
{{- printf "%s-%s" (include "qm.fullname" $root | trunc 40 | trimSuffix "-") (index . 1) | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Selector labels of a component. Call with (list $root "component"). */}}
{{- define "qm.selectorLabels" -}}
{{- $root := index . 0 -}}
app.kubernetes.io/name: {{ include "qm.name" $root }}
app.kubernetes.io/instance: {{ $root.Release.Name }}
app.kubernetes.io/component: {{ index . 1 }}
{{- end }}

{{/* All labels of a component. Call with (list $root "component"). */}}
{{- define "qm.labels" -}}
{{- $root := index . 0 -}}
helm.sh/chart: {{ printf "%s-%s" $root.Chart.Name $root.Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{ include "qm.selectorLabels" . }}
app.kubernetes.io/part-of: quartermaster
app.kubernetes.io/version: {{ $root.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ $root.Release.Service }}
{{- end }}

{{- define "qm.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "qm.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{- define "qm.secretName" -}}
{{- default (include "qm.fullname" .) .Values.secrets.existingSecret }}
{{- end }}

{{/* Image of a service. Call with (list $root $svc). */}}
{{- define "qm.image" -}}
{{- $root := index . 0 }}
{{- $svc := index . 1 }}
{{- $repo := required "services.<name>.image.repository is required" $svc.image.repository }}
{{- $tag := $svc.image.tag | default $root.Values.global.image.tag | default $root.Chart.AppVersion }}
{{- if $root.Values.global.image.registry }}
{{- printf "%s/%s:%s" (trimSuffix "/" $root.Values.global.image.registry) $repo $tag }}
{{- else }}
{{- printf "%s:%s" $repo $tag }}
{{- end }}
{{- end }}

{{/* Image of a piece of infrastructure (nats, mongodb, keycloak, smtp). Call with the component's values. */}}
{{- define "qm.infraImage" -}}
{{- printf "%s:%s" .image.repository (toString .image.tag) }}
{{- end }}

{{/* ---- Where the infrastructure is ---- */}}

{{- define "qm.mongoUrl" -}}
{{- if .Values.mongodb.enabled }}
{{- printf "mongodb://%s:27017" (include "qm.componentName" (list . "mongodb")) }}
{{- else }}
{{- .Values.mongodb.external.url }}
{{- end }}
{{- end }}

{{- define "qm.natsUrl" -}}
{{- if .Values.nats.enabled }}
{{- printf "nats://%s:4222" (include "qm.componentName" (list . "nats")) }}
{{- else }}
{{- .Values.nats.external.url }}
{{- end }}
{{- end }}

{{- define "qm.keycloakUrl" -}}
{{- if .Values.keycloak.enabled }}
{{- printf "http://%s:8081%s" (include "qm.componentName" (list . "keycloak")) (trimSuffix "/" .Values.keycloak.httpRelativePath) }}
{{- else }}
{{- trimSuffix "/" .Values.keycloak.external.url }}
{{- end }}
{{- end }}

{{/* Keycloak as the browser reaches it (keycloak-js for SSO): on the app's host when installed in-chart. */}}
{{- define "qm.keycloakPublicUrl" -}}
{{- if .Values.keycloak.enabled }}
{{- printf "%s%s" (include "qm.publicUrl" .) (trimSuffix "/" .Values.keycloak.httpRelativePath) }}
{{- else }}
{{- trimSuffix "/" (default .Values.keycloak.external.url .Values.keycloak.external.publicUrl) }}
{{- end }}
{{- end }}

{{- define "qm.smtpUrl" -}}
{{- if .Values.smtp.external.url }}
{{- .Values.smtp.external.url }}
{{- else if .Values.smtp.enabled }}
{{- printf "smtp://%s:1025" (include "qm.componentName" (list . "smtp")) }}
{{- end }}
{{- end }}

{{/* In-cluster URL of an http service (e.g. the gateway). Call with (list $root "name"). */}}
{{- define "qm.serviceUrl" -}}
{{- $root := index . 0 }}
{{- $name := index . 1 }}
{{- printf "http://%s:%v" (include "qm.componentName" (list $root $name)) (index $root.Values.services $name).port }}
{{- end }}

{{/* The enabled services whose `calls` name the given one (a YAML list). Call with (list $root "name"). */}}
{{- define "qm.callersOf" -}}
{{- $root := index . 0 }}
{{- $callee := index . 1 }}
{{- $names := list }}
{{- range $name, $svc := $root.Values.services }}
{{- if and $svc.enabled (has $callee ($svc.calls | default list)) }}
{{- $names = append $names $name }}
{{- end }}
{{- end }}
{{- toYaml $names }}
{{- end }}

{{/* The Secret a key is read from: secrets.keysFrom names another for some keys. Call with (list $root "KEY"). */}}
{{- define "qm.secretNameOf" -}}
{{- $root := index . 0 }}
{{- index ($root.Values.secrets.keysFrom | default dict) (index . 1) | default (include "qm.secretName" $root) }}
{{- end }}

{{/* Public URL of the app (the gateway). */}}
{{- define "qm.publicUrl" -}}
{{- if .Values.global.publicUrl }}
{{- trimSuffix "/" .Values.global.publicUrl }}
{{- else if .Values.ingress.enabled }}
{{- printf "%s://%s" (ternary "https" "http" .Values.ingress.tls.enabled) .Values.ingress.host }}
{{- else }}
{{- print "http://localhost:8080" }}
{{- end }}
{{- end }}

{{/* Fails the render when a needed piece of infrastructure is neither installed nor external. */}}
{{- define "qm.validate" -}}
{{- range $infra := list "nats" "mongodb" "keycloak" }}
{{- $v := index $.Values $infra }}
{{- if and (not $v.enabled) (not $v.external.url) (not $v.external.urlFromSecret) }}
{{- fail (printf "%s: set %s.enabled=true or %s.external.url" $infra $infra $infra) }}
{{- end }}
{{- end }}
{{- if not (include "qm.smtpUrl" .) }}
{{- if not .Values.secrets.existingSecret }}
{{- fail "smtp: set smtp.enabled=true or smtp.external.url (or provide SMTP_URL in secrets.existingSecret)" }}
{{- end }}
{{- end }}
{{- if and .Values.mongodb.enabled (not (has .Values.mongodb.readinessProbe (list "mongosh" "tcpSocket"))) }}
{{- fail (printf "mongodb.readinessProbe must be mongosh or tcpSocket, not %v" .Values.mongodb.readinessProbe) }}
{{- end }}
{{- if not (and .Values.services.gateway .Values.services.gateway.enabled) }}
{{- fail "services.gateway must be enabled: it is the only entry to the app" }}
{{- end }}
{{- if and .Values.ingress.enabled (not .Values.ingress.trustedProxies) }}
{{- fail "ingress.trustedProxies is required with the ingress: the ingress controller's pod CIDR or addresses (or 'none')" }}
{{- end }}
{{- range $name, $svc := .Values.services }}
{{- if $svc.enabled }}
{{- if not (has $svc.kind (list "http" "grpc")) }}
{{- fail (printf "services.%s.kind must be http or grpc, not %v" $name $svc.kind) }}
{{- end }}
{{- if and $svc.autoscaling.enabled (not (dig "requests" "cpu" "" ($svc.resources | default dict))) }}
{{- fail (printf "services.%s: autoscaling on CPU needs resources.requests.cpu" $name) }}
{{- end }}
{{- range $callee := $svc.calls | default list }}
{{- if not (dig $callee "enabled" false $.Values.services) }}
{{- fail (printf "services.%s calls %s, which is not enabled" $name $callee) }}
{{- end }}
{{- end }}
{{- end }}
{{- end }}
{{- end }}

{{/*
Secret keys a service reads: its secretEnv, plus MONGO_URL / NATS_URL when those come from the Secret.
Call with (list $root $svc); returns a YAML list.
*/}}
{{- define "qm.secretKeys" -}}
{{- $root := index . 0 }}
{{- $svc := index . 1 }}
{{- $keys := $svc.secretEnv | default list }}
{{- if and (not $root.Values.mongodb.enabled) $root.Values.mongodb.external.urlFromSecret }}
{{- $keys = append $keys "MONGO_URL" }}
{{- end }}
{{- if and (not $root.Values.nats.enabled) $root.Values.nats.external.urlFromSecret }}
{{- $keys = append $keys "NATS_URL" }}
{{- end }}
{{- toYaml (uniq $keys) }}
{{- end }}

{{/*
Plain configuration of a service (its ConfigMap data). Call with (list $root "name" $svc).
Keys that come from the Secret are left out; so are empty values.
*/}}
{{- define "qm.serviceConfig" -}}
{{- $root := index . 0 }}
{{- $name := index . 1 }}
{{- $svc := index . 2 }}
{{- $env := dict
  "NODE_ENV" $root.Values.global.nodeEnv
  "LOG_LEVEL" $root.Values.global.logLevel
  "MONGO_URL" (include "qm.mongoUrl" $root)
  "MONGO_DB" (printf "qm_%s" $name)
  "NATS_URL" (include "qm.natsUrl" $root)
  "EVENTS_PREFIX" $root.Values.nats.eventsPrefix
  "MONGO_MAX_POOL_SIZE" $root.Values.mongodb.maxPoolSize
  "QM_STORE_ENGINE" $root.Values.mongodb.storeEngine
  "PUBLIC_URL" (include "qm.publicUrl" $root)
}}
{{- with $root.Values.global.faults }}
{{- $_ := set $env "QM_FAULTS" (toJson .) }}
{{- end }}
{{- with $root.Values.global.otel.endpoint }}
{{- $_ := set $env "OTEL_EXPORTER_OTLP_ENDPOINT" . }}
{{- $_ := set $env "OTEL_SERVICE_NAME" $name }}
{{- end }}
{{- if eq $svc.kind "grpc" }}
{{- $_ := set $env "GRPC_PORT" $svc.port }}
{{- /* The pod's network (the services default to loopback); NetworkPolicies say who may connect. */}}
{{- $_ := set $env "GRPC_HOST" "0.0.0.0" }}
{{- else }}
{{- $_ := set $env "PORT" $svc.port }}
{{- end }}
{{- if eq $name "gateway" }}
{{- $_ := set $env "FRONTEND_DIST" "/app/frontends" }}
{{- with $root.Values.ingress.trustedProxies }}
{{- $_ := set $env "TRUSTED_PROXIES" . }}
{{- end }}
{{- range $other, $o := $root.Values.services }}
{{- if and $o.enabled (eq $o.kind "grpc") }}
{{- $_ := set $env (printf "%s_GRPC_ADDR" (upper $other)) (printf "dns:///%s:%v" (include "qm.componentName" (list $root $other)) $o.port) }}
{{- end }}
{{- end }}
{{- end }}
{{- if $svc.metricsPort }}
{{- $_ := set $env "METRICS_PORT" $svc.metricsPort }}
{{- end }}
{{- if $svc.keycloak }}
{{- $_ := set $env "KEYCLOAK_URL" (include "qm.keycloakUrl" $root) }}
{{- $_ := set $env "KEYCLOAK_REALM" $root.Values.keycloak.realm }}
{{- $_ := set $env "KEYCLOAK_CLIENT_ID" $root.Values.keycloak.clientId }}
{{- $_ := set $env "KEYCLOAK_PUBLIC_URL" (include "qm.keycloakPublicUrl" $root) }}
{{- $_ := set $env "KEYCLOAK_WEB_CLIENT_ID" $root.Values.keycloak.webClientId }}
{{- end }}
{{- range $callee := $svc.calls | default list }}
{{- $c := index $root.Values.services $callee }}
{{- if eq $c.kind "grpc" }}
{{- $_ := set $env (printf "%s_GRPC_ADDR" (upper $callee)) (printf "dns:///%s:%v" (include "qm.componentName" (list $root $callee)) $c.port) }}
{{- end }}
{{- end }}
{{- range $k, $v := $svc.env }}
{{- $_ := set $env $k (tpl (toString $v) $root) }}
{{- end }}
{{- $secretKeys := include "qm.secretKeys" (list $root $svc) | fromYamlArray }}
{{- $out := dict }}
{{- range $k, $v := $env }}
{{- if and (not (has $k $secretKeys)) (ne (toString $v) "") }}
{{- $_ := set $out $k (toString $v) }}
{{- end }}
{{- end }}
{{- toYaml $out }}
{{- end }}

{{/*
Data of the generated Secret (plain text; the template encodes it), made once per render: the Secret and
every pod's checksum/secret must see the same random keys, or the first upgrade (which reads them back)
would change every checksum and roll every Deployment.
*/}}
{{- define "qm.secretData" -}}
{{- if not (hasKey . "qmSecretData") }}
{{- $_ := set . "qmSecretData" (include "qm.secretDataOnce" .) }}
{{- end }}
{{- .qmSecretData }}
{{- end }}

{{/*
Values given in secrets.values win; generated keys are read back from the live Secret so upgrades keep them.
*/}}
{{- define "qm.secretDataOnce" -}}
{{- $old := dict }}
{{- $live := lookup "v1" "Secret" .Release.Namespace (include "qm.secretName" .) }}
{{- if $live }}
{{- $old = $live.data | default dict }}
{{- end }}
{{- $out := dict }}
{{- range $k := .Values.secrets.generate }}
{{- if hasKey $old $k }}
{{- $_ := set $out $k (index $old $k | b64dec) }}
{{- else }}
{{- $_ := set $out $k (randAlphaNum 32) }}
{{- end }}
{{- end }}
{{- /*
The gateway's key pair for caller assertions (docs/adr/021): an Ed25519 private key (the gateway's
CALLER_SIGNING_KEY) and a self-signed certificate holding its public key (the services'
CALLER_VERIFY_KEY; Helm cannot print a bare public key, and only the key in it is used). Kept
across upgrades like the generated strings.
*/}}
{{- if and (hasKey $old "CALLER_SIGNING_KEY") (hasKey $old "CALLER_VERIFY_KEY") }}
{{- $_ := set $out "CALLER_SIGNING_KEY" (index $old "CALLER_SIGNING_KEY" | b64dec) }}
{{- $_ := set $out "CALLER_VERIFY_KEY" (index $old "CALLER_VERIFY_KEY" | b64dec) }}
{{- else }}
{{- $key := genPrivateKey "ed25519" }}
{{- $cert := genSelfSignedCertWithKey "qm-gateway caller assertions" nil nil 36500 $key }}
{{- $_ := set $out "CALLER_SIGNING_KEY" $key }}
{{- $_ := set $out "CALLER_VERIFY_KEY" $cert.Cert }}
{{- end }}
{{- with include "qm.smtpUrl" . }}
{{- $_ := set $out "SMTP_URL" . }}
{{- end }}
{{- range $k, $v := .Values.secrets.values }}
{{- if ne (toString $v) "" }}
{{- $_ := set $out $k (toString $v) }}
{{- end }}
{{- end }}
{{- toYaml $out }}
{{- end }}

{{/* Pod-level security context shared by every workload. Call with the uid. */}}
{{- define "qm.podSecurityContext" -}}
runAsNonRoot: true
runAsUser: {{ . }}
runAsGroup: {{ . }}
fsGroup: {{ . }}
seccompProfile:
  type: RuntimeDefault
{{- end }}

{{/* Container security context. Call with true/false for a read-only root filesystem. */}}
{{- define "qm.containerSecurityContext" -}}
allowPrivilegeEscalation: false
readOnlyRootFilesystem: {{ . }}
runAsNonRoot: true
capabilities:
  drop: [ALL]
seccompProfile:
  type: RuntimeDefault
{{- end }}

{{/* Egress to cluster DNS (NetworkPolicy rule). */}}
{{/*
Egress to the OTLP collector (global.otel): its rules when given, else TCP to the endpoint's port
(from the URL, else the scheme's) on any pod of the cluster. Nothing without an endpoint.
*/}}
{{- define "qm.otelEgress" -}}
{{- $otel := .Values.global.otel }}
{{- if $otel.endpoint }}
{{- if $otel.egress }}
{{- toYaml $otel.egress }}
{{- else }}
{{- $url := urlParse $otel.endpoint }}
{{- $hostPort := splitList ":" $url.host }}
{{- $port := ternary (last $hostPort) (ternary "443" "80" (eq $url.scheme "https")) (gt (len $hostPort) 1) }}
- to:
    - namespaceSelector: {}
  ports:
    - { port: {{ $port }}, protocol: TCP }
{{- end }}
{{- end }}
{{- end }}

{{- define "qm.dnsEgress" -}}
- to:
    {{- toYaml .Values.networkPolicy.dns | nindent 4 }}
  ports:
    - { port: 53, protocol: UDP }
    - { port: 53, protocol: TCP }
{{- end }}

{{/* PersistentVolumeClaim template of a StatefulSet. Call with the component's persistence values. */}}
{{- define "qm.volumeClaim" -}}
- metadata:
    name: data
  spec:
    accessModes: [ReadWriteOnce]
    {{- with .storageClass }}
    storageClassName: {{ . | quote }}
    {{- end }}
    resources:
      requests:
        storage: {{ .size }}
{{- end }}

{{/* Names of the enabled services for which a predicate key is true-ish. Call with (list $root "what"). */}}
{{- define "qm.servicesUsing" -}}
{{- $root := index . 0 }}
{{- $what := index . 1 }}
{{- $names := list }}
{{- range $name, $svc := $root.Values.services }}
{{- if $svc.enabled }}
{{- if or (eq $what "any") (and (eq $what "keycloak") $svc.keycloak) (and (eq $what "smtp") (has "SMTP_URL" ($svc.secretEnv | default list))) }}
{{- $names = append $names $name }}
{{- end }}
{{- end }}
{{- end }}
{{- toYaml $names }}
{{- end }}

{{/* NetworkPolicy peer: the pods of the given services (a YAML list of names). */}}
{{- define "qm.podsOf" -}}
{{- $root := index . 0 }}
{{- $names := index . 1 -}}
podSelector:
  matchLabels:
    app.kubernetes.io/name: {{ include "qm.name" $root }}
    app.kubernetes.io/instance: {{ $root.Release.Name }}
  matchExpressions:
    - key: app.kubernetes.io/component
      operator: In
      values: {{ toJson $names }}
{{- end }}
