/** A JetStream stream: its name and the subjects it stores. */
export interface StreamSpec {
  name: string;
  subjects: string[];
}

const PUBLISHERS = ['identity', 'catalog', 'wallet', 'orders', 'support', 'assistant', 'activity'] as const;

/** The stream of each publishing service (plus activity): QM_<SERVICE> stores `<service>.>`. */
export const STREAM_NAMES = Object.fromEntries(PUBLISHERS.map((svc) => [svc, `QM_${svc.toUpperCase()}`])) as {
  [K in (typeof PUBLISHERS)[number]]: `QM_${Uppercase<K>}`;
};

/** The streams of the whole product. */
export const STREAMS: StreamSpec[] = PUBLISHERS.map((svc) => ({
  name: STREAM_NAMES[svc],
  subjects: [`${svc}.>`],
}));
