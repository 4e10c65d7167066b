import { UnionOssReturnBuilder, type ReturnInputs, type UnionOssReturn } from '../src/domain/union-oss-return';

/** The quarter's return from its fact groups in one call (the service adds groups as its read streams them). */
export function buildUnionOssReturn(input: ReturnInputs): UnionOssReturn {
  const { groups, exchangeRate, ...settings } = input;
  const b = new UnionOssReturnBuilder(settings);
  for (const g of groups) b.add(g);
  return b.finish(exchangeRate);
}
