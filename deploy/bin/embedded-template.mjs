// postinstall: builds the embedded database's template clusters (deploy/src/embedded-template.ts), compiled.
import { launch } from '../bundle.mjs';

await launch('embedded-template');
