import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * What the local VIES answers for one number: a registration status, a VIES error code (with the HTTP
 * status it comes with), a dropped connection, or a sequence of those consumed one request at a time
 * (the last one repeats).
 */
export type ViesBehaviour = 'valid' | 'invalid' | 'drop' | { error: string; status?: number } | ViesBehaviour[];

/** The Commission's test service numbers (any country): 100 valid, 200 invalid, then one error each. */
const COMMISSION_TEST_NUMBERS: Record<string, ViesBehaviour> = {
  '100': 'valid',
  '200': 'invalid',
  '201': { error: 'INVALID_INPUT', status: 400 },
  '202': { error: 'INVALID_REQUESTER_INFO', status: 400 },
  '300': { error: 'SERVICE_UNAVAILABLE', status: 500 },
  '301': { error: 'MS_UNAVAILABLE' },
  '302': { error: 'TIMEOUT' },
  '400': { error: 'VAT_BLOCKED' },
  '401': { error: 'IP_BLOCKED' },
  '500': { error: 'GLOBAL_MAX_CONCURRENT_REQ' },
  '501': { error: 'GLOBAL_MAX_CONCURRENT_REQ_TIME' },
  '600': { error: 'MS_MAX_CONCURRENT_REQ' },
  '601': { error: 'MS_MAX_CONCURRENT_REQ_TIME' },
};

export type ViesRequest = { countryCode: string; vatNumber: string; requesterMemberStateCode?: string; requesterNumber?: string };

/**
 * A local HTTP server speaking the VIES REST contract (`POST /check-vat-number`, `GET /check-status`),
 * for tests at the true edge: the client under test is the one that talks to the Commission.
 */
export class LocalVies {
  /** Behaviour per full number (`DE123456789`); unknown numbers are `invalid`, like VIES. */
  readonly numbers = new Map<string, ViesBehaviour>();
  /** Delay before every check-vat-number answer (a slow Member State). */
  delayMs = 0;
  /** Every request of `down` mode is answered SERVICE_UNAVAILABLE with HTTP 500 (VIES itself is down). */
  down = false;
  /** More requests than this in flight for one Member State are refused with MS_MAX_CONCURRENT_REQ. */
  msMaxConcurrent = Infinity;
  /** check-status: `vow.available` and per-country availability (absent = Available). */
  vowAvailable = true;
  readonly availability = new Map<string, string>();
  readonly requests: ViesRequest[] = [];
  statusRequests = 0;
  /** The most requests of each Member State ever in flight at once. */
  readonly maxInFlight = new Map<string, number>();
  private readonly inFlight = new Map<string, number>();
  private consultations = 0;
  private server: Server | undefined;

  get url(): string {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}/taxation_customs/vies/rest-api`;
  }

  /** Requests about one full number so far. */
  countFor(full: string): number {
    return this.requests.filter((r) => `${r.countryCode}${r.vatNumber}` === full).length;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return this;
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const path = (req.url ?? '').replace(/^\/taxation_customs\/vies\/rest-api/, '');
    if (req.method === 'GET' && path === '/check-status') return this.status(res);
    if (req.method !== 'POST' || path !== '/check-vat-number') return send(res, 404, { actionSucceed: false, errorWrappers: [{ error: 'VOW-ERR-404', message: 'not found' }] });
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    let body: ViesRequest;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ViesRequest;
    } catch {
      return send(res, 400, { actionSucceed: false, errorWrappers: [{ error: 'VOW-ERR-11', message: 'malformed' }] });
    }
    this.requests.push(body);
    const state = body.countryCode;
    const n = (this.inFlight.get(state) ?? 0) + 1;
    this.inFlight.set(state, n);
    this.maxInFlight.set(state, Math.max(this.maxInFlight.get(state) ?? 0, n));
    try {
      if (this.delayMs > 0) await sleep(this.delayMs);
      if (this.down) return send(res, 500, errorBody('SERVICE_UNAVAILABLE'));
      if (n > this.msMaxConcurrent) return send(res, 200, errorBody('MS_MAX_CONCURRENT_REQ'));
      const behaviour = this.next(`${state}${body.vatNumber}`, body.vatNumber);
      if (behaviour === 'drop') return req.socket.destroy();
      if (typeof behaviour === 'object' && !Array.isArray(behaviour)) return send(res, behaviour.status ?? 200, errorBody(behaviour.error));
      const valid = behaviour === 'valid';
      const withRequester = !!body.requesterMemberStateCode && !!body.requesterNumber;
      send(res, 200, {
        countryCode: state,
        vatNumber: body.vatNumber,
        requestDate: new Date().toISOString(),
        valid,
        requestIdentifier: withRequester ? `WAPIAAAA${String(++this.consultations).padStart(8, '0')}` : '',
        name: valid ? `Trader ${state}${body.vatNumber.slice(-3)} GmbH` : '---',
        address: valid ? `Hauptstrasse 1\n10115 Berlin` : '---',
        traderName: '',
        traderStreet: '',
        traderPostalCode: '',
        traderCity: '',
        traderCompanyType: '',
        traderNameMatch: 'NOT_PROCESSED',
        traderStreetMatch: 'NOT_PROCESSED',
        traderPostalCodeMatch: 'NOT_PROCESSED',
        traderCityMatch: 'NOT_PROCESSED',
        traderCompanyTypeMatch: 'NOT_PROCESSED',
      });
    } finally {
      this.inFlight.set(state, (this.inFlight.get(state) ?? 1) - 1);
    }
  }

  /** The behaviour for this request, consuming one step of a sequence. */
  private next(full: string, number: string): Exclude<ViesBehaviour, ViesBehaviour[]> {
    const b = this.numbers.get(full) ?? COMMISSION_TEST_NUMBERS[number] ?? 'invalid';
    if (!Array.isArray(b)) return b;
    if (b.length > 1) this.numbers.set(full, b.slice(1));
    return b[0] as Exclude<ViesBehaviour, ViesBehaviour[]>;
  }

  private status(res: ServerResponse) {
    this.statusRequests++;
    if (this.down) return send(res, 500, errorBody('SERVICE_UNAVAILABLE'));
    const states = ['AT', 'BE', 'BG', 'CY', 'CZ', 'DE', 'DK', 'EE', 'EL', 'ES', 'FI', 'FR', 'HR', 'HU', 'IE', 'IT', 'LT', 'LU', 'LV', 'MT', 'NL', 'PL', 'PT', 'RO', 'SE', 'SI', 'SK', 'XI'];
    send(res, 200, { vow: { available: this.vowAvailable }, countries: states.map((countryCode) => ({ countryCode, availability: this.availability.get(countryCode) ?? 'Available' })) });
  }
}

function errorBody(code: string) {
  return { actionSucceed: false, errorWrappers: [{ error: code, message: `local VIES: ${code}` }] };
}

function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** A German VAT number with a correct check digit (ISO 7064 MOD 11,10) built from 8 digits. */
export function germanVatNumber(eightDigits: string): string {
  let product = 10;
  for (const d of eightDigits) {
    let sum = (Number(d) + product) % 10;
    if (sum === 0) sum = 10;
    product = (2 * sum) % 11;
  }
  return `DE${eightDigits}${(11 - product) % 10}`;
}
