// `npm run admin`: runs deploy/src/admin.ts compiled (see deploy/bundle.mjs), or for `keys …` and `integrations …`
// the key commands' own smaller bundle (deploy/src/admin-keys-main.ts).
import { adminEntry, launch } from '../bundle.mjs';

await launch(adminEntry(process.argv.slice(2)));
