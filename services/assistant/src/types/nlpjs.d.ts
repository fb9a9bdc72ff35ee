/** The parts of NLP.js (docs/adr/023) the assistant uses; the packages ship no types. */
declare module '@nlpjs/core' {
  export interface Container {
    use(plugin: unknown): void;
    get(name: string): unknown;
  }
  export function containerBootstrap(settings?: Record<string, unknown>): Promise<Container>;
}

declare module '@nlpjs/nlp' {
  import type { Container } from '@nlpjs/core';
  export interface NlpResult {
    intent: string;
    score: number;
    classifications: { intent: string; score: number }[];
  }
  export class Nlp {
    constructor(settings?: Record<string, unknown>, container?: Container);
    addLanguage(locale: string): void;
    addDocument(locale: string, utterance: string, intent: string): void;
    train(): Promise<unknown>;
    process(locale: string, utterance: string): Promise<NlpResult>;
  }
}

declare module '@nlpjs/lang-en-min' {
  export const LangEn: unknown;
}
