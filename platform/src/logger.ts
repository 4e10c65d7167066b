import pino, { type DestinationStream, type Logger } from 'pino';

/** The process logger. API keys, internal tokens and VAT identifiers are redacted wherever they appear. */
export function createLogger(level: string, name: string, destination?: DestinationStream): Logger {
  return pino(
    {
    level,
    name,
    redact: {
      paths: [
        'req.headers["x-api-key"]',
        'req.headers["x-vat-internal-token"]',
        'req.headers.authorization',
        'vat_registration_number',
        'ioss_intermediary_number',
        '*.vat_registration_number',
        '*.ioss_intermediary_number',
        '*.*.vat_registration_number',
        '*.*.ioss_intermediary_number',
        'vatRegistrationNumber',
        'iossIntermediaryNumber',
        '*.vatRegistrationNumber',
        '*.iossIntermediaryNumber',
        '*.*.vatRegistrationNumber',
        '*.*.iossIntermediaryNumber',
        'key',
        '*.key',
      ],
      censor: '[redacted]',
    },
  },
    destination ?? pino.destination(1),
  );
}
