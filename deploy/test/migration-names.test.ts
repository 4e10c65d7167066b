import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { migrations as gatewayMigrations } from '@vat/gateway/migrations/index';
import { MIGRATION_NAMES as gatewayNames } from '@vat/gateway/migrations/names';
import { committedMigrationNames, migrationNamesModule } from '../src/migrations-tool';
import { MODULES } from '../src/modules';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe('the generated lists of committed migrations', () => {
  // The admin CLI's key commands decide from the gateway's names.ts whether to migrate (gateway/src/key-admin.ts): a
  // list behind the migrations would leave a new database without the newest tables.
  it("names.ts of each schema names index.ts's migrations in the same order, and every Migration*.ts is in both", async () => {
    const folders: [string, string[]][] = [['gateway/src/migrations', gatewayMigrations.map((m) => m.name)]];
    for (const [service, mod] of Object.entries(MODULES)) folders.push([`services/${service}/src/migrations`, mod.migrations.map((m) => m.name)]);
    for (const [folder, indexed] of folders) {
      const files = committedMigrationNames(`${ROOT}${folder}`);
      expect(indexed, folder).toEqual(files);
      const { MIGRATION_NAMES } = (await import(`${ROOT}${folder}/names.ts`)) as { MIGRATION_NAMES: readonly string[] };
      expect([...MIGRATION_NAMES], folder).toEqual(files);
      expect(readFileSync(`${ROOT}${folder}/names.ts`, 'utf8'), folder).toBe(migrationNamesModule(files));
    }
    expect(gatewayNames.length).toBeGreaterThan(0);
  });
});
