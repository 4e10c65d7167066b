import { adminArgs, runCli } from './admin-cli';
import { keyCommand } from './admin-keys';
import { UsageError } from './usage';

/**
 * The admin CLI's key commands alone: the bundle `deploy/bin/admin.mjs` runs for `keys …` and `integrations …`. It
 * holds no ORM: a database whose gateway schema is not at this code's version (a new one, or one not yet upgraded)
 * needs MikroORM's migrator, so the command is handed, before it has done anything, to the whole CLI (./admin), which
 * migrates and runs it.
 */
class GatewaySchemaToMigrate extends Error {}

let handOver = false;
await runCli(async (argv) => {
  const args = adminArgs(argv);
  try {
    const code = await keyCommand(args, async () => {
      throw new GatewaySchemaToMigrate();
    });
    if (code === undefined) throw new UsageError(`unknown command: ${args.positionals.join(' ') || '(none)'}`);
    return code;
  } catch (err) {
    if (!(err instanceof GatewaySchemaToMigrate)) throw err;
    handOver = true;
    return 0;
  }
});
if (handOver) {
  // deploy/bundle.mjs, found at run time (a path the bundler leaves alone): the whole CLI, built if stale, or through tsx.
  const launcher = new URL('../bundle.mjs', import.meta.url).href;
  await ((await import(launcher)) as { launch(entry: string): Promise<void> }).launch('admin');
}
