import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createClient } from '@connectrpc/connect';
import {
  AggregateTransactionsResponseSchema,
  CalculateResponseSchema,
  CreateSourceResponseSchema,
  GetTaxClassResponseSchema,
  GetTransactionResponseSchema,
  ListSourcesResponseSchema,
  ListUnknownSourcesResponseSchema,
  ListTaxClassesResponseSchema,
  ListTransactionsResponseSchema,
  TaxClassService,
} from '@vat/gen/vat/calculation/v1/calculation_service_pb';
import { GetClassificationCodeResponseSchema, ResolveTaxClassResponseSchema } from '@vat/gen/vat/classification/v1/classification_service_pb';
import { GetReadinessResponseSchema } from '@vat/gen/vat/platform/v1/readiness_service_pb';
import { CheckSmeEligibilityResponseSchema } from '@vat/gen/vat/thresholds/v1/thresholds_service_pb';
import { createClients, type Clients } from '@vat/platform/clients';
import { SERVICE_NAMES } from '@vat/platform/config';
import { PRINCIPAL_HEADERS, principalHeaders } from '@vat/platform/principal';
import { startHarness, type Harness } from '../support/harness';
import { requireBackends } from '../support/env';
import { expectSame, streamed, unary, type Answer } from './answers';
import { NETWORK_KINDS, threeTransports, TRANSPORT_KINDS, type ThreeTransports, type TransportKind } from './three-transports';

const backends = await requireBackends(['postgres']);

const YEAR = { from: '2025-01-01', to: '2025-12-31' };
const COUNTRIES = ['DE', 'FR', 'IT', 'ES'] as const;
const TOKEN = 'contract-suite-internal-token';

/**
 * The same calls through the direct in-process transport, Connect's router transport and HTTP/2
 * Connect, against the real services on one fresh database: the answers must be identical,
 * failures included (code, message, ErrorInfo), and so must streams, deadlines and cancellation.
 */
describe.skipIf(!backends.ok)('one contract, three transports', () => {
  let h: Harness;
  let wired: ThreeTransports;
  let guarded: ThreeTransports;
  const clients = {} as Record<TransportKind, Clients>;
  let shared: Record<string, string>;
  let storedId: string;

  beforeAll(async () => {
    h = await startHarness();
    wired = await threeTransports(h.built.services, h.config);
    const calculation = h.built.services.filter((s) => s.module.name === 'calculation');
    guarded = await threeTransports(calculation, { ...h.config, internalToken: TOKEN });
    for (const kind of TRANSPORT_KINDS) clients[kind] = createClients(wired.transportFor[kind]);
    const key = await h.built.gateway!.keys.create('contract-shared', 'full', false);
    shared = principalHeaders({ accountId: BigInt(key.account_id), apiKeyId: BigInt(key.id), keyKind: 'v2', scope: 'full' });
    const c = clients.direct;
    for (const [i, country] of COUNTRIES.entries()) {
      for (let month = 1; month <= 6; month++) {
        const res = await c.calculation.calculate(
          {
            country,
            currency: 'EUR',
            taxClassId: 'standard',
            amountMinor: BigInt(1000 * month + 17 * i),
            priceIncludesVat: month % 2 === 0,
            transactionDate: `2025-0${month}-1${i}`,
            sourceId: month % 3 === 0 ? 'shop/eu' : undefined,
            idempotencyKey: `contract-${country}-${month}`,
          },
          { headers: shared },
        );
        storedId = res.result!.calculationId;
      }
    }
    await c.sources.createSource({ sourceKey: 'shop/eu', displayName: 'EU shop', channelType: 'owned_store', defaultCountry: 'DE' }, { headers: shared });
    await c.sources.createSource({ sourceKey: 'market/amazon-de', displayName: 'Amazon DE', channelType: 'marketplace', active: false }, { headers: shared });
  });

  afterAll(async () => {
    await wired?.close();
    await guarded?.close();
    await h?.close();
  });

  /** Runs `call` through every transport, expects one answer, and checks it. */
  function contract(name: string, call: (c: Clients) => Promise<Answer>, check: (a: Answer) => void) {
    it(name, async () => {
      const answers = {} as Record<TransportKind, Answer>;
      for (const kind of TRANSPORT_KINDS) answers[kind] = await call(clients[kind]);
      check(expectSame(answers));
    });
  }
  const failed = (code: string, reason?: string) => (a: Answer) => {
    expect(a.kind).toBe('failure');
    expect(a.kind === 'failure' && a.failure).toMatchObject({ code, ...(reason ? { reason } : {}) });
  };
  const succeeded = (check: (json: Record<string, unknown>) => void) => (a: Answer) => {
    expect(a.kind).toBe('message');
    if (a.kind === 'message') check(a.json as Record<string, unknown>);
  };

  describe('unary calls', () => {
    contract('public tax classes with a rate preview', (c) => unary(ListTaxClassesResponseSchema, c.taxClasses.listTaxClasses({ country: 'DE', at: '2025-06-01' })), succeeded((j) => expect((j.items as unknown[]).length).toBeGreaterThan(30)));
    contract('an unknown tax class is NotFound', (c) => unary(GetTaxClassResponseSchema, c.taxClasses.getTaxClass({ id: 'no_such_class' })), failed('NotFound', 'tax_class_not_found'));
    contract('a country outside the EU is InvalidArgument', (c) => unary(ListTaxClassesResponseSchema, c.taxClasses.listTaxClasses({ country: 'US' })), failed('InvalidArgument', 'invalid_country'));
    contract('an idempotent retry returns the stored calculation', (c) =>
      unary(CalculateResponseSchema, c.calculation.calculate({ country: 'DE', currency: 'EUR', taxClassId: 'standard', amountMinor: 1000n, priceIncludesVat: false, transactionDate: '2025-01-10', idempotencyKey: 'contract-DE-1' }, { headers: shared })),
      succeeded((j) => expect(j).toMatchObject({ replayed: true, result: { country: 'DE', netAmountMinor: '1000', vatAmountMinor: '190' } })),
    );
    contract('a calculation the service refuses', (c) => unary(CalculateResponseSchema, c.calculation.calculate({ country: 'DE', currency: 'EUR', taxClassId: 'no_such_class', amountMinor: 100n, transactionDate: '2025-01-10' }, { headers: shared })), (a) => expect(a.kind).toBe('failure'));
    contract('a page of transactions', (c) => unary(ListTransactionsResponseSchema, c.calculation.listTransactions({ limit: 5, filter: { country: 'FR' } }, { headers: shared })), succeeded((j) => expect(j).toMatchObject({ items: expect.any(Array), nextCursor: expect.any(String) })));
    contract('a stored transaction', (c) => unary(GetTransactionResponseSchema, c.calculation.getTransaction({ id: storedId }, { headers: shared })), succeeded((j) => expect(j).toMatchObject({ transaction: { summary: { id: storedId } } })));
    contract('an unknown transaction is NotFound', (c) => unary(GetTransactionResponseSchema, c.calculation.getTransaction({ id: '00000000-0000-4000-8000-000000000000' }, { headers: shared })), failed('NotFound', 'transaction_not_found'));
    contract('an aggregate by country', (c) => unary(AggregateTransactionsResponseSchema, c.calculation.aggregateTransactions({ groupBy: 'country', filter: YEAR }, { headers: shared })), succeeded((j) => expect(JSON.stringify(j)).toContain('"IT"')));
    contract('source profiles', (c) => unary(ListSourcesResponseSchema, c.sources.listSources({}, { headers: shared })), succeeded((j) => expect(j).toMatchObject({ activeCount: 1, storedCount: 2 })));
    contract('a duplicate source profile is AlreadyExists', (c) => unary(CreateSourceResponseSchema, c.sources.createSource({ sourceKey: 'shop/eu', displayName: 'again', channelType: 'owned_store' }, { headers: shared })), failed('AlreadyExists', 'source_key_exists'));
    contract('an invalid source profile is InvalidArgument', (c) => unary(CreateSourceResponseSchema, c.sources.createSource({ sourceKey: 'bad key!', displayName: 'x', channelType: 'owned_store' }, { headers: shared })), failed('InvalidArgument', 'invalid_source_key'));
    contract('SME eligibility', (c) => unary(CheckSmeEligibilityResponseSchema, c.sme.checkSmeEligibility({ country: 'DE', currency: 'EUR', annualTurnoverNac: 20_000n, referenceDate: '2025-06-01' })), succeeded((j) => expect(j).toMatchObject({ result: { country: 'DE' } })));
    contract('SME eligibility in the wrong currency is FailedPrecondition (422)', (c) => unary(CheckSmeEligibilityResponseSchema, c.sme.checkSmeEligibility({ country: 'PL', currency: 'EUR', annualTurnoverNac: 1n })), failed('FailedPrecondition', 'currency_mismatch'));
    contract('a code lookup without an approved catalog is unavailable', (c) => unary(GetClassificationCodeResponseSchema, c.classification.getClassificationCode({ scheme: 'cn', code: '0101 21 00', legalDate: '2025-06-01' })), failed('NotFound', 'catalog_unavailable'));
    contract('a mapping without a published coverage manifest needs review', (c) => unary(ResolveTaxClassResponseSchema, c.classification.resolveTaxClass({ scheme: 'cn', exactCode: '01012100', catalogVersion: '2025', jurisdiction: 'DE', legalDate: '2025-06-01' })), succeeded((j) => expect(j).toMatchObject({ status: 'needs_review' })));
    for (const name of SERVICE_NAMES) {
      contract(`${name} readiness`, (c) => unary(GetReadinessResponseSchema, c.readiness[name].getReadiness({})), succeeded((j) => expect(j).toMatchObject({ service: name, ready: true })));
    }
  });

  describe('who is calling', () => {
    contract('a tenant call without a principal is Unauthenticated', (c) => unary(ListTransactionsResponseSchema, c.calculation.listTransactions({})), failed('Unauthenticated'));
    contract('a malformed principal is Unauthenticated', (c) => unary(ListSourcesResponseSchema, c.sources.listSources({}, { headers: { ...shared, [PRINCIPAL_HEADERS.account]: 'acme' } })), failed('Unauthenticated'));

    it('with an internal token configured, HTTP/2 refuses a call without it or with a wrong one; in-process transports cross no network and serve', async () => {
      for (const token of [undefined, 'not-the-internal-token', TOKEN]) {
        for (const kind of TRANSPORT_KINDS) {
          const taxClasses = createClient(TaxClassService, guarded.transportFor[kind]('calculation'));
          const answer = await unary(ListTaxClassesResponseSchema, taxClasses.listTaxClasses({}, { headers: token ? { [PRINCIPAL_HEADERS.token]: token } : {} }));
          if (token === TOKEN || !NETWORK_KINDS.includes(kind)) expect(answer.kind, `${kind} ${token}`).toBe('message');
          else expect(answer, `${kind} ${token}`).toMatchObject({ kind: 'failure', failure: { code: 'Unauthenticated', rawMessage: 'caller is not the gateway' } });
        }
      }
    });
  });

  describe('streams, deadlines and cancellation', () => {
    for (const exportVersion of [1, 2]) {
      contract(`the full CSV export, version ${exportVersion}`, (c) => streamed(c.calculation.exportTransactions({ filter: YEAR, exportVersion }, { headers: shared }), (m) => m.csvChunk), (a) => {
        expect(a.kind === 'text' && a.failure).toBeUndefined();
        expect(a.kind === 'text' && a.text.trim().split('\n')).toHaveLength(1 + COUNTRIES.length * 6);
      });
    }
    contract('an export refused before the first chunk', (c) => streamed(c.calculation.exportTransactions({ filter: { from: '2025-02-01', to: '2025-01-01' }, exportVersion: 1 }, { headers: shared }), (m) => m.csvChunk), (a) => {
      expect(a).toMatchObject({ kind: 'text', text: '', failure: { code: 'InvalidArgument', reason: 'invalid_date_range' } });
    });

    /**
     * Holds an exclusive lock on the source profile table, so ListUnknownSources (read-only; it looks up the
     * account's profiles in the database on every call, where ListSources may answer from memory) waits until
     * released: a call that is slow for certain, without side effects when it finally runs.
     */
    async function whileSourcesLocked(run: () => Promise<Answer>): Promise<Answer> {
      const lock = new pg.Client({ connectionString: h.databaseUrl });
      await lock.connect();
      try {
        await lock.query('begin');
        await lock.query('lock table "calculation".source_profile in access exclusive mode');
        return await run();
      } finally {
        await lock.query('rollback');
        await lock.end();
      }
    }

    contract('a deadline that passes while the call waits is DeadlineExceeded', (c) => whileSourcesLocked(() => unary(ListUnknownSourcesResponseSchema, c.sources.listUnknownSources({}, { headers: shared, timeoutMs: 150 }))), failed('DeadlineExceeded'));
    contract('cancelling a waiting call through its AbortSignal is Canceled', (c) =>
      whileSourcesLocked(async () => {
        const controller = new AbortController();
        const answer = unary(ListUnknownSourcesResponseSchema, c.sources.listUnknownSources({}, { headers: shared, signal: controller.signal }));
        await new Promise((r) => setTimeout(r, 100));
        controller.abort();
        return answer;
      }),
      failed('Canceled'),
    );
    contract('a call whose signal is already aborted is Canceled', (c) => unary(ListSourcesResponseSchema, c.sources.listSources({}, { headers: shared, signal: AbortSignal.abort() })), failed('Canceled'));
  });
});
