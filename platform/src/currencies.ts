/**
 * ISO 4217 currency table (List One = current codes, plus the List Three historical codes the EU VAT service can
 * meet), with minor units and validity for new transactions.
 *
 * Source: ISO 4217 Maintenance Agency, List One (current currency & funds) as published 2024-06-25, updated with
 * the later amendments: XCG (Caribbean Guilder, from 2025-03-31) replacing ANG, and BGN withdrawn on Bulgaria's
 * adoption of the euro on 2026-01-01. Historical codes and minor units from List Three.
 *
 * Validity dates (`validFrom` / `validUntil`, both inclusive, `YYYY-MM-DD`) say when a code may be used for a NEW
 * transaction: e.g. HRK up to and including 2022-12-31 (Croatia adopted the euro on 2023-01-01), BGN up to and
 * including 2025-12-31. Legacy national currencies of the first euro area members stay valid until 2001-12-31 (the
 * end of the euro's transitional period, during which they were non-decimal subdivisions of the euro).
 * `validFrom` is recorded for codes introduced after 1999 (the start of the ECB series) where the introduction
 * date is well established; a code without `validFrom` is treated as valid since before 1999.
 *
 * `minorUnits` is `null` where ISO 4217 says "N.A." (precious metals, SDR, bond market units, XTS, XXX).
 */

interface CurrencyInfo {
  /** ISO 4217 numeric code, 3 digits. */
  readonly numeric: string;
  /** Exponent of the minor unit (2 = cents); `null` where ISO 4217 gives "N.A.". */
  readonly minorUnits: number | null;
  readonly name: string;
  /** ISO 4217 marks the entry as a fund code (IsFund). */
  readonly fund?: boolean;
  /** First day (inclusive) the code may be used for a new transaction. Absent: since before 1999. */
  readonly validFrom?: string;
  /** Last day (inclusive) the code may be used for a new transaction. Absent: still current. */
  readonly validUntil?: string;
}

const TABLE = {
  // ---- ISO 4217 List One: current currencies and funds ----
  AED: { numeric: '784', minorUnits: 2, name: 'UAE Dirham' },
  AFN: { numeric: '971', minorUnits: 2, name: 'Afghani' },
  ALL: { numeric: '008', minorUnits: 2, name: 'Lek' },
  AMD: { numeric: '051', minorUnits: 2, name: 'Armenian Dram' },
  AOA: { numeric: '973', minorUnits: 2, name: 'Kwanza' },
  ARS: { numeric: '032', minorUnits: 2, name: 'Argentine Peso' },
  AUD: { numeric: '036', minorUnits: 2, name: 'Australian Dollar' },
  AWG: { numeric: '533', minorUnits: 2, name: 'Aruban Florin' },
  AZN: { numeric: '944', minorUnits: 2, name: 'Azerbaijan Manat', validFrom: '2006-01-01' },
  BAM: { numeric: '977', minorUnits: 2, name: 'Convertible Mark' },
  BBD: { numeric: '052', minorUnits: 2, name: 'Barbados Dollar' },
  BDT: { numeric: '050', minorUnits: 2, name: 'Taka' },
  BHD: { numeric: '048', minorUnits: 3, name: 'Bahraini Dinar' },
  BIF: { numeric: '108', minorUnits: 0, name: 'Burundi Franc' },
  BMD: { numeric: '060', minorUnits: 2, name: 'Bermudian Dollar' },
  BND: { numeric: '096', minorUnits: 2, name: 'Brunei Dollar' },
  BOB: { numeric: '068', minorUnits: 2, name: 'Boliviano' },
  BOV: { numeric: '984', minorUnits: 2, name: 'Mvdol', fund: true },
  BRL: { numeric: '986', minorUnits: 2, name: 'Brazilian Real' },
  BSD: { numeric: '044', minorUnits: 2, name: 'Bahamian Dollar' },
  BTN: { numeric: '064', minorUnits: 2, name: 'Ngultrum' },
  BWP: { numeric: '072', minorUnits: 2, name: 'Pula' },
  BYN: { numeric: '933', minorUnits: 2, name: 'Belarusian Ruble', validFrom: '2016-07-01' },
  BZD: { numeric: '084', minorUnits: 2, name: 'Belize Dollar' },
  CAD: { numeric: '124', minorUnits: 2, name: 'Canadian Dollar' },
  CDF: { numeric: '976', minorUnits: 2, name: 'Congolese Franc' },
  CHE: { numeric: '947', minorUnits: 2, name: 'WIR Euro', fund: true },
  CHF: { numeric: '756', minorUnits: 2, name: 'Swiss Franc' },
  CHW: { numeric: '948', minorUnits: 2, name: 'WIR Franc', fund: true },
  CLF: { numeric: '990', minorUnits: 4, name: 'Unidad de Fomento', fund: true },
  CLP: { numeric: '152', minorUnits: 0, name: 'Chilean Peso' },
  CNY: { numeric: '156', minorUnits: 2, name: 'Yuan Renminbi' },
  COP: { numeric: '170', minorUnits: 2, name: 'Colombian Peso' },
  COU: { numeric: '970', minorUnits: 2, name: 'Unidad de Valor Real', fund: true },
  CRC: { numeric: '188', minorUnits: 2, name: 'Costa Rican Colon' },
  CUC: { numeric: '931', minorUnits: 2, name: 'Peso Convertible' },
  CUP: { numeric: '192', minorUnits: 2, name: 'Cuban Peso' },
  CVE: { numeric: '132', minorUnits: 2, name: 'Cabo Verde Escudo' },
  CZK: { numeric: '203', minorUnits: 2, name: 'Czech Koruna' },
  DJF: { numeric: '262', minorUnits: 0, name: 'Djibouti Franc' },
  DKK: { numeric: '208', minorUnits: 2, name: 'Danish Krone' },
  DOP: { numeric: '214', minorUnits: 2, name: 'Dominican Peso' },
  DZD: { numeric: '012', minorUnits: 2, name: 'Algerian Dinar' },
  EGP: { numeric: '818', minorUnits: 2, name: 'Egyptian Pound' },
  ERN: { numeric: '232', minorUnits: 2, name: 'Nakfa' },
  ETB: { numeric: '230', minorUnits: 2, name: 'Ethiopian Birr' },
  EUR: { numeric: '978', minorUnits: 2, name: 'Euro', validFrom: '1999-01-01' },
  FJD: { numeric: '242', minorUnits: 2, name: 'Fiji Dollar' },
  FKP: { numeric: '238', minorUnits: 2, name: 'Falkland Islands Pound' },
  GBP: { numeric: '826', minorUnits: 2, name: 'Pound Sterling' },
  GEL: { numeric: '981', minorUnits: 2, name: 'Lari' },
  GHS: { numeric: '936', minorUnits: 2, name: 'Ghana Cedi', validFrom: '2007-07-01' },
  GIP: { numeric: '292', minorUnits: 2, name: 'Gibraltar Pound' },
  GMD: { numeric: '270', minorUnits: 2, name: 'Dalasi' },
  GNF: { numeric: '324', minorUnits: 0, name: 'Guinean Franc' },
  GTQ: { numeric: '320', minorUnits: 2, name: 'Quetzal' },
  GYD: { numeric: '328', minorUnits: 2, name: 'Guyana Dollar' },
  HKD: { numeric: '344', minorUnits: 2, name: 'Hong Kong Dollar' },
  HNL: { numeric: '340', minorUnits: 2, name: 'Lempira' },
  HTG: { numeric: '332', minorUnits: 2, name: 'Gourde' },
  HUF: { numeric: '348', minorUnits: 2, name: 'Forint' },
  IDR: { numeric: '360', minorUnits: 2, name: 'Rupiah' },
  ILS: { numeric: '376', minorUnits: 2, name: 'New Israeli Sheqel' },
  INR: { numeric: '356', minorUnits: 2, name: 'Indian Rupee' },
  IQD: { numeric: '368', minorUnits: 3, name: 'Iraqi Dinar' },
  IRR: { numeric: '364', minorUnits: 2, name: 'Iranian Rial' },
  ISK: { numeric: '352', minorUnits: 0, name: 'Iceland Krona' },
  JMD: { numeric: '388', minorUnits: 2, name: 'Jamaican Dollar' },
  JOD: { numeric: '400', minorUnits: 3, name: 'Jordanian Dinar' },
  JPY: { numeric: '392', minorUnits: 0, name: 'Yen' },
  KES: { numeric: '404', minorUnits: 2, name: 'Kenyan Shilling' },
  KGS: { numeric: '417', minorUnits: 2, name: 'Som' },
  KHR: { numeric: '116', minorUnits: 2, name: 'Riel' },
  KMF: { numeric: '174', minorUnits: 0, name: 'Comorian Franc' },
  KPW: { numeric: '408', minorUnits: 2, name: 'North Korean Won' },
  KRW: { numeric: '410', minorUnits: 0, name: 'Won' },
  KWD: { numeric: '414', minorUnits: 3, name: 'Kuwaiti Dinar' },
  KYD: { numeric: '136', minorUnits: 2, name: 'Cayman Islands Dollar' },
  KZT: { numeric: '398', minorUnits: 2, name: 'Tenge' },
  LAK: { numeric: '418', minorUnits: 2, name: 'Lao Kip' },
  LBP: { numeric: '422', minorUnits: 2, name: 'Lebanese Pound' },
  LKR: { numeric: '144', minorUnits: 2, name: 'Sri Lanka Rupee' },
  LRD: { numeric: '430', minorUnits: 2, name: 'Liberian Dollar' },
  LSL: { numeric: '426', minorUnits: 2, name: 'Loti' },
  LYD: { numeric: '434', minorUnits: 3, name: 'Libyan Dinar' },
  MAD: { numeric: '504', minorUnits: 2, name: 'Moroccan Dirham' },
  MDL: { numeric: '498', minorUnits: 2, name: 'Moldovan Leu' },
  MGA: { numeric: '969', minorUnits: 2, name: 'Malagasy Ariary' },
  MKD: { numeric: '807', minorUnits: 2, name: 'Denar' },
  MMK: { numeric: '104', minorUnits: 2, name: 'Kyat' },
  MNT: { numeric: '496', minorUnits: 2, name: 'Tugrik' },
  MOP: { numeric: '446', minorUnits: 2, name: 'Pataca' },
  MRU: { numeric: '929', minorUnits: 2, name: 'Ouguiya', validFrom: '2018-01-01' },
  MUR: { numeric: '480', minorUnits: 2, name: 'Mauritius Rupee' },
  MVR: { numeric: '462', minorUnits: 2, name: 'Rufiyaa' },
  MWK: { numeric: '454', minorUnits: 2, name: 'Malawi Kwacha' },
  MXN: { numeric: '484', minorUnits: 2, name: 'Mexican Peso' },
  MXV: { numeric: '979', minorUnits: 2, name: 'Mexican Unidad de Inversion (UDI)', fund: true },
  MYR: { numeric: '458', minorUnits: 2, name: 'Malaysian Ringgit' },
  MZN: { numeric: '943', minorUnits: 2, name: 'Mozambique Metical', validFrom: '2006-07-01' },
  NAD: { numeric: '516', minorUnits: 2, name: 'Namibia Dollar' },
  NGN: { numeric: '566', minorUnits: 2, name: 'Naira' },
  NIO: { numeric: '558', minorUnits: 2, name: 'Cordoba Oro' },
  NOK: { numeric: '578', minorUnits: 2, name: 'Norwegian Krone' },
  NPR: { numeric: '524', minorUnits: 2, name: 'Nepalese Rupee' },
  NZD: { numeric: '554', minorUnits: 2, name: 'New Zealand Dollar' },
  OMR: { numeric: '512', minorUnits: 3, name: 'Rial Omani' },
  PAB: { numeric: '590', minorUnits: 2, name: 'Balboa' },
  PEN: { numeric: '604', minorUnits: 2, name: 'Sol' },
  PGK: { numeric: '598', minorUnits: 2, name: 'Kina' },
  PHP: { numeric: '608', minorUnits: 2, name: 'Philippine Peso' },
  PKR: { numeric: '586', minorUnits: 2, name: 'Pakistan Rupee' },
  PLN: { numeric: '985', minorUnits: 2, name: 'Zloty' },
  PYG: { numeric: '600', minorUnits: 0, name: 'Guarani' },
  QAR: { numeric: '634', minorUnits: 2, name: 'Qatari Rial' },
  RON: { numeric: '946', minorUnits: 2, name: 'Romanian Leu', validFrom: '2005-07-01' },
  RSD: { numeric: '941', minorUnits: 2, name: 'Serbian Dinar' },
  RUB: { numeric: '643', minorUnits: 2, name: 'Russian Ruble' },
  RWF: { numeric: '646', minorUnits: 0, name: 'Rwanda Franc' },
  SAR: { numeric: '682', minorUnits: 2, name: 'Saudi Riyal' },
  SBD: { numeric: '090', minorUnits: 2, name: 'Solomon Islands Dollar' },
  SCR: { numeric: '690', minorUnits: 2, name: 'Seychelles Rupee' },
  SDG: { numeric: '938', minorUnits: 2, name: 'Sudanese Pound' },
  SEK: { numeric: '752', minorUnits: 2, name: 'Swedish Krona' },
  SGD: { numeric: '702', minorUnits: 2, name: 'Singapore Dollar' },
  SHP: { numeric: '654', minorUnits: 2, name: 'Saint Helena Pound' },
  SLE: { numeric: '925', minorUnits: 2, name: 'Leone', validFrom: '2022-07-01' },
  SOS: { numeric: '706', minorUnits: 2, name: 'Somali Shilling' },
  SRD: { numeric: '968', minorUnits: 2, name: 'Surinam Dollar', validFrom: '2004-01-01' },
  SSP: { numeric: '728', minorUnits: 2, name: 'South Sudanese Pound', validFrom: '2011-07-18' },
  STN: { numeric: '930', minorUnits: 2, name: 'Dobra', validFrom: '2018-01-01' },
  SVC: { numeric: '222', minorUnits: 2, name: 'El Salvador Colon' },
  SYP: { numeric: '760', minorUnits: 2, name: 'Syrian Pound' },
  SZL: { numeric: '748', minorUnits: 2, name: 'Lilangeni' },
  THB: { numeric: '764', minorUnits: 2, name: 'Baht' },
  TJS: { numeric: '972', minorUnits: 2, name: 'Somoni' },
  TMT: { numeric: '934', minorUnits: 2, name: 'Turkmenistan New Manat', validFrom: '2009-01-01' },
  TND: { numeric: '788', minorUnits: 3, name: 'Tunisian Dinar' },
  TOP: { numeric: '776', minorUnits: 2, name: "Pa'anga" },
  TRY: { numeric: '949', minorUnits: 2, name: 'Turkish Lira', validFrom: '2005-01-01' },
  TTD: { numeric: '780', minorUnits: 2, name: 'Trinidad and Tobago Dollar' },
  TWD: { numeric: '901', minorUnits: 2, name: 'New Taiwan Dollar' },
  TZS: { numeric: '834', minorUnits: 2, name: 'Tanzanian Shilling' },
  UAH: { numeric: '980', minorUnits: 2, name: 'Hryvnia' },
  UGX: { numeric: '800', minorUnits: 0, name: 'Uganda Shilling' },
  USD: { numeric: '840', minorUnits: 2, name: 'US Dollar' },
  USN: { numeric: '997', minorUnits: 2, name: 'US Dollar (Next day)', fund: true },
  UYI: { numeric: '940', minorUnits: 0, name: 'Uruguay Peso en Unidades Indexadas (UI)', fund: true },
  UYU: { numeric: '858', minorUnits: 2, name: 'Peso Uruguayo' },
  UYW: { numeric: '927', minorUnits: 4, name: 'Unidad Previsional' },
  UZS: { numeric: '860', minorUnits: 2, name: 'Uzbekistan Sum' },
  VED: { numeric: '926', minorUnits: 2, name: 'Bolívar Soberano', validFrom: '2021-10-01' },
  VES: { numeric: '928', minorUnits: 2, name: 'Bolívar Soberano', validFrom: '2018-08-20' },
  VND: { numeric: '704', minorUnits: 0, name: 'Dong' },
  VUV: { numeric: '548', minorUnits: 0, name: 'Vatu' },
  WST: { numeric: '882', minorUnits: 2, name: 'Tala' },
  XAF: { numeric: '950', minorUnits: 0, name: 'CFA Franc BEAC' },
  XAG: { numeric: '961', minorUnits: null, name: 'Silver' },
  XAU: { numeric: '959', minorUnits: null, name: 'Gold' },
  XBA: { numeric: '955', minorUnits: null, name: 'Bond Markets Unit European Composite Unit (EURCO)' },
  XBB: { numeric: '956', minorUnits: null, name: 'Bond Markets Unit European Monetary Unit (E.M.U.-6)' },
  XBC: { numeric: '957', minorUnits: null, name: 'Bond Markets Unit European Unit of Account 9 (E.U.A.-9)' },
  XBD: { numeric: '958', minorUnits: null, name: 'Bond Markets Unit European Unit of Account 17 (E.U.A.-17)' },
  XCD: { numeric: '951', minorUnits: 2, name: 'East Caribbean Dollar' },
  XCG: { numeric: '532', minorUnits: 2, name: 'Caribbean Guilder', validFrom: '2025-03-31' },
  XDR: { numeric: '960', minorUnits: null, name: 'SDR (Special Drawing Right)' },
  XOF: { numeric: '952', minorUnits: 0, name: 'CFA Franc BCEAO' },
  XPD: { numeric: '964', minorUnits: null, name: 'Palladium' },
  XPF: { numeric: '953', minorUnits: 0, name: 'CFP Franc' },
  XPT: { numeric: '962', minorUnits: null, name: 'Platinum' },
  XSU: { numeric: '994', minorUnits: null, name: 'Sucre' },
  XTS: { numeric: '963', minorUnits: null, name: 'Codes specifically reserved for testing purposes' },
  XUA: { numeric: '965', minorUnits: null, name: 'ADB Unit of Account' },
  XXX: { numeric: '999', minorUnits: null, name: 'The codes assigned for transactions where no currency is involved' },
  YER: { numeric: '886', minorUnits: 2, name: 'Yemeni Rial' },
  ZAR: { numeric: '710', minorUnits: 2, name: 'Rand' },
  ZMW: { numeric: '967', minorUnits: 2, name: 'Zambian Kwacha', validFrom: '2013-01-01' },
  ZWG: { numeric: '924', minorUnits: 2, name: 'Zimbabwe Gold', validFrom: '2024-06-25' },

  // ---- Historical codes (ISO 4217 List Three) relevant to EU periods ----
  // Legacy currencies of the first euro area members (euro from 1999-01-01, cash changeover 2002-01-01).
  ATS: { numeric: '040', minorUnits: 2, name: 'Schilling', validUntil: '2001-12-31' },
  BEF: { numeric: '056', minorUnits: 0, name: 'Belgian Franc', validUntil: '2001-12-31' },
  DEM: { numeric: '276', minorUnits: 2, name: 'Deutsche Mark', validUntil: '2001-12-31' },
  ESP: { numeric: '724', minorUnits: 0, name: 'Spanish Peseta', validUntil: '2001-12-31' },
  FIM: { numeric: '246', minorUnits: 2, name: 'Markka', validUntil: '2001-12-31' },
  FRF: { numeric: '250', minorUnits: 2, name: 'French Franc', validUntil: '2001-12-31' },
  IEP: { numeric: '372', minorUnits: 2, name: 'Irish Pound', validUntil: '2001-12-31' },
  ITL: { numeric: '380', minorUnits: 0, name: 'Italian Lira', validUntil: '2001-12-31' },
  LUF: { numeric: '442', minorUnits: 0, name: 'Luxembourg Franc', validUntil: '2001-12-31' },
  NLG: { numeric: '528', minorUnits: 2, name: 'Netherlands Guilder', validUntil: '2001-12-31' },
  PTE: { numeric: '620', minorUnits: 0, name: 'Portuguese Escudo', validUntil: '2001-12-31' },
  // Greece: euro from 2001-01-01, drachma a subdivision of the euro until the 2002 cash changeover.
  GRD: { numeric: '300', minorUnits: 0, name: 'Drachma', validUntil: '2001-12-31' },
  // Later euro adoptions: the national currency is valid up to the day before the euro.
  SIT: { numeric: '705', minorUnits: 2, name: 'Tolar', validUntil: '2006-12-31' },
  CYP: { numeric: '196', minorUnits: 2, name: 'Cyprus Pound', validUntil: '2007-12-31' },
  MTL: { numeric: '470', minorUnits: 2, name: 'Maltese Lira', validUntil: '2007-12-31' },
  SKK: { numeric: '703', minorUnits: 2, name: 'Slovak Koruna', validUntil: '2008-12-31' },
  EEK: { numeric: '233', minorUnits: 2, name: 'Kroon', validUntil: '2010-12-31' },
  LVL: { numeric: '428', minorUnits: 2, name: 'Latvian Lats', validUntil: '2013-12-31' },
  LTL: { numeric: '440', minorUnits: 2, name: 'Lithuanian Litas', validUntil: '2014-12-31' },
  HRK: { numeric: '191', minorUnits: 2, name: 'Kuna', validUntil: '2022-12-31' },
  BGN: { numeric: '975', minorUnits: 2, name: 'Bulgarian Lev', validUntil: '2025-12-31' },
  // Redenominations in the ECB series: ROL -> RON (2005-07-01), TRL -> TRY (2005-01-01).
  ROL: { numeric: '642', minorUnits: 2, name: 'Leu (old)', validUntil: '2005-06-30' },
  TRL: { numeric: '792', minorUnits: 0, name: 'Old Turkish Lira', validUntil: '2004-12-31' },
  // Curaçao and Sint Maarten: replaced by XCG on 2025-03-31; dual circulation ended 2025-06-30.
  ANG: { numeric: '532', minorUnits: 2, name: 'Netherlands Antillean Guilder', validUntil: '2025-06-30' },
} as const satisfies Record<string, CurrencyInfo>;

type CurrencyCode = keyof typeof TABLE;

/** The full table, keyed by alphabetic code. */
export const CURRENCIES: Readonly<Record<string, CurrencyInfo>> = TABLE;

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

function assertIsoDate(date: string): void {
  const m = DATE_RE.exec(date);
  if (!m) throw new RangeError(`invalid date ${JSON.stringify(date)}: expected YYYY-MM-DD`);
  const y = Number(m[1]);
  const mo = Number(m[2]);
  const d = Number(m[3]);
  const dt = new Date(Date.UTC(y, mo - 1, d));
  if (dt.getUTCFullYear() !== y || dt.getUTCMonth() !== mo - 1 || dt.getUTCDate() !== d) {
    throw new RangeError(`invalid date ${JSON.stringify(date)}: not a calendar date`);
  }
}

/** True when `code` is in the table (current or historical). */
export function isKnownCurrency(code: string): code is CurrencyCode {
  return Object.hasOwn(TABLE, code);
}

/** Table entry for `code`, or `undefined` for an unknown code. */
export function currencyInfo(code: string): CurrencyInfo | undefined {
  return isKnownCurrency(code) ? TABLE[code] : undefined;
}

/**
 * Minor units (decimal exponent) of `code`: JPY 0, EUR 2, KWD 3, CLF 4. `undefined` for an unknown code and for
 * codes whose minor unit ISO 4217 gives as "N.A." (XAU, XDR, ...). Never guesses a default.
 */
export function minorUnits(code: string): number | undefined {
  const info = currencyInfo(code);
  return info?.minorUnits ?? undefined;
}

/** Like {@link minorUnits} but throws for an unknown code or one without minor units. */
export function requireMinorUnits(code: string): number {
  const mu = minorUnits(code);
  if (mu === undefined) {
    throw new RangeError(
      isKnownCurrency(code)
        ? `currency ${code} has no minor unit in ISO 4217 (N.A.)`
        : `unknown ISO 4217 currency code ${JSON.stringify(code)}`,
    );
  }
  return mu;
}

/**
 * Whether `code` may be used for a new transaction dated `date` (YYYY-MM-DD): known, and `date` lies within its
 * inclusive validity. E.g. HRK on 2022-12-31 is valid, on 2023-01-01 it is not; BGN until 2025-12-31.
 * Unknown codes are never valid. Throws on a malformed date.
 */
export function isCurrencyValidOn(code: string, date: string): boolean {
  assertIsoDate(date);
  const info = currencyInfo(code);
  if (!info) return false;
  if (info.validFrom !== undefined && date < info.validFrom) return false;
  if (info.validUntil !== undefined && date > info.validUntil) return false;
  return true;
}

