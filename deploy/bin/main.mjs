// `npm start` / `npm run start:service`: runs deploy/src/main.ts compiled (see deploy/bundle.mjs).
import { launch } from '../bundle.mjs';

await launch('main');
