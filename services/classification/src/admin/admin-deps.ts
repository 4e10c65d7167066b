import type pg from 'pg';
import type { FieldCipher } from '@vat/platform/crypto';
import { AssignmentRepository } from '../repositories/assignments';
import { CatalogRepository } from '../repositories/catalogs';
import { CoverageRepository } from '../repositories/coverage';
import { OperatorRepository } from '../repositories/operators';

/** What the operator workflow (admin CLI) works with: the service's repositories on its pool, and the secret cipher. */
export type AdminDeps = {
  pool: pg.Pool;
  cipher: FieldCipher;
  now: () => Date;
  catalogs: CatalogRepository;
  operators: OperatorRepository;
  coverage: CoverageRepository;
  assignments: AssignmentRepository;
};

export function adminDeps(pool: pg.Pool, cipher: FieldCipher, now: () => Date = () => new Date()): AdminDeps {
  return { pool, cipher, now, catalogs: new CatalogRepository(pool), operators: new OperatorRepository(pool), coverage: new CoverageRepository(pool), assignments: new AssignmentRepository(pool) };
}

/** A refused operator action; it has been written to the audit log before it is thrown. */
export class OperatorRefusal extends Error {
  constructor(readonly reason: string, detail: string, readonly extra: Record<string, unknown> = {}) {
    super(`${reason}: ${detail}`);
  }
}
