import { createRouterTransport, type Transport } from '@connectrpc/connect';
import { describe, expect, it } from 'vitest';
import { CLIENT_OWNERS, createClients } from '../src/clients';
import type { ServiceName } from '../src/config';

function transports() {
  const asked: ServiceName[] = [];
  const transportFor = (name: ServiceName): Transport => {
    asked.push(name);
    return createRouterTransport(() => undefined);
  };
  return { asked, transportFor };
}

describe('clients of a service', () => {
  it('are built only for the services it uses', () => {
    const { asked, transportFor } = transports();
    const clients = createClients(transportFor, ['ledger'], 'thresholds');
    expect(Object.keys(clients)).toEqual(['ledger']);
    expect([...new Set(asked)]).toEqual(['ledger']);
  });

  it('refuse, at run time too, a client of a service it does not declare', () => {
    const { transportFor } = transports();
    const clients = createClients(transportFor, ['ledger'], 'thresholds') as unknown as Record<string, unknown>;
    expect(() => clients.sources).toThrow(/thresholds calls calculation \(sources\) without declaring it/);
    expect(() => clients.readiness).toThrow(/thresholds holds no readiness clients/);
    expect(clients.ledger).toBeDefined();
  });

  it('the gateway holds every client and every readiness client', () => {
    const { asked, transportFor } = transports();
    const clients = createClients(transportFor);
    expect(Object.keys(clients).sort()).toEqual([...Object.keys(CLIENT_OWNERS), 'readiness'].sort());
    expect(Object.keys(clients.readiness).sort()).toEqual(['calculation', 'classification', 'compliance-reports', 'ledger', 'thresholds']);
    expect(new Set(asked).size).toBe(5);
  });
});
