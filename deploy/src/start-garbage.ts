export { collectStartGarbage } from '@vat/platform/start-garbage';
