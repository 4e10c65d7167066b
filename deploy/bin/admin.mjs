// `npm run admin`: runs deploy/src/admin.ts compiled (see deploy/bundle.mjs).
import { launch } from '../bundle.mjs';

await launch('admin');
