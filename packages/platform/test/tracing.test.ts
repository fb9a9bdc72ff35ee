import { ConfigError, exportersFromEnv, parseConfig, serviceEnv } from '../src';

describe('tracing configuration', () => {
  it('exports nowhere unless an endpoint is set', () => {
    expect(exportersFromEnv({})).toEqual([]);
    expect(exportersFromEnv({ OTEL_SERVICE_NAME: 'catalog' })).toEqual([]);
  });

  it('exports over OTLP/HTTP to <endpoint>/v1/traces, and to Zipkin when asked', () => {
    const [otlp, ...rest] = exportersFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' });
    expect(rest).toEqual([]);
    expect(otlp?.constructor.name).toBe('OTLPTraceExporter');
    const both = exportersFromEnv({
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces',
      OTEL_EXPORTER_ZIPKIN_ENDPOINT: 'http://127.0.0.1:9411/api/v2/spans',
    });
    expect(both.map((e) => e.constructor.name)).toEqual(['OTLPTraceExporter', 'ZipkinExporter']);
    both.forEach((e) => void e.shutdown());
    void otlp?.shutdown();
  });

  it('is off whatever else is set when OTEL_SDK_DISABLED=true', () => {
    expect(
      exportersFromEnv({ OTEL_SDK_DISABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }),
    ).toEqual([]);
  });

  it('refuses a malformed endpoint at start-up, naming the variable', () => {
    expect(() => parseConfig(serviceEnv, { OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' })).toThrow(
      ConfigError,
    );
    expect(() => parseConfig(serviceEnv, { OTEL_EXPORTER_OTLP_ENDPOINT: 'not a url' })).toThrow(
      /OTEL_EXPORTER_OTLP_ENDPOINT/,
    );
  });
});
