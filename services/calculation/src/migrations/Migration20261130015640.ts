import { Migration } from '@mikro-orm/migrations';

/**
 * VAT rate seed files recognised by their bytes (issue 24, start time): `seedFilesDigest` of the files → the
 * release they were loaded as. A restart hashes the 600 KB of files instead of parsing, validating and
 * canonicalising them (≈ 35 → ≈ 5 ms). The first start after this migration records the files once.
 */

export class Migration20261130015640 extends Migration {

  override name = 'Migration20261130015640';

  override up(): void | Promise<void> {
    this.addSql(`create table "calculation"."rate_release_seed_files" ("files_digest" varchar(80) not null, "release_digest" varchar(80) not null, "recorded_at" timestamptz not null, primary key ("files_digest"));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "calculation"."rate_release_seed_files" cascade;`);
  }

}
