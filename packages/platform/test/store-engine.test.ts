import {
  chooseStoreEngine,
  ConfigError,
  LOCAL_POSTGRESQL_URL,
  parseConfig,
  serviceEnv,
  StoreEngineConfigError,
  storeEngineOfStack,
  storeEngineVariables,
} from '../src';

// docs/adr/024: the store engine is chosen once, from the configuration.
const PG = 'postgres://postgres@127.0.0.1:5433/postgres';
const config = (env: Record<string, string>) => parseConfig(serviceEnv, env);

describe('chooseStoreEngine', () => {
  it('takes the local engine when its PostgreSQL URL is configured, MongoDB otherwise', () => {
    expect(chooseStoreEngine(config({ FERRETDB_POSTGRESQL_URL: PG }))).toEqual({
      engine: 'ferretdb-postgresql',
      postgresqlUrl: PG,
    });
    expect(chooseStoreEngine(config({}))).toEqual({ engine: 'mongodb' });
  });

  it('follows QM_STORE_ENGINE, and the MongoDB engine never reads the PostgreSQL URL', () => {
    expect(chooseStoreEngine(config({ QM_STORE_ENGINE: 'mongodb', FERRETDB_POSTGRESQL_URL: PG }))).toEqual({
      engine: 'mongodb',
    });
    expect(
      chooseStoreEngine(config({ QM_STORE_ENGINE: 'ferretdb-postgresql', FERRETDB_POSTGRESQL_URL: PG })),
    ).toEqual({ engine: 'ferretdb-postgresql', postgresqlUrl: PG });
  });

  it('refuses the local engine without its URL, and an unknown engine, as configuration errors', () => {
    expect(() => chooseStoreEngine(config({ QM_STORE_ENGINE: 'ferretdb-postgresql' }))).toThrow(
      StoreEngineConfigError,
    );
    expect(() => config({ QM_STORE_ENGINE: 'postgres' })).toThrow(ConfigError);
    expect(() => config({ QM_STORE_ENGINE: 'postgres' })).toThrow(/QM_STORE_ENGINE/);
  });

  it('round-trips through the variables a child process gets', () => {
    for (const choice of [
      { engine: 'mongodb' as const },
      { engine: 'ferretdb-postgresql' as const, postgresqlUrl: PG },
    ])
      expect(chooseStoreEngine(config(storeEngineVariables(choice)))).toEqual(choice);
  });
});

describe('storeEngineOfStack (tests and load tools)', () => {
  it('defaults to the local stack, and QM_STORE_ENGINE=mongodb or an empty URL to MongoDB', () => {
    expect(storeEngineOfStack({})).toEqual({
      engine: 'ferretdb-postgresql',
      postgresqlUrl: LOCAL_POSTGRESQL_URL,
    });
    expect(storeEngineOfStack({ QM_STORE_ENGINE: 'mongodb', FERRETDB_POSTGRESQL_URL: PG })).toEqual({
      engine: 'mongodb',
    });
    expect(storeEngineOfStack({ FERRETDB_POSTGRESQL_URL: '' })).toEqual({ engine: 'mongodb' });
    expect(() => storeEngineOfStack({ QM_STORE_ENGINE: 'sqlite' })).toThrow(StoreEngineConfigError);
  });
});
