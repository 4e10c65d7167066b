/** Layout of the ECB XML feeds (gesmes:Envelope > Cube > Cube time > Cube currency/rate), single-quoted as the ECB does. */
export function ecbXml(days: Record<string, Record<string, string>>): string {
  const body = Object.entries(days)
    .map(
      ([time, rates]) =>
        `\t\t<Cube time='${time}'>\n` +
        Object.entries(rates)
          .map(([c, r]) => `\t\t\t<Cube currency='${c}' rate='${r}'/>\n`)
          .join('') +
        '\t\t</Cube>\n',
    )
    .join('');
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    '<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">\n' +
    '\t<gesmes:subject>Reference rates</gesmes:subject>\n' +
    '\t<gesmes:Sender>\n\t\t<gesmes:name>European Central Bank</gesmes:name>\n\t</gesmes:Sender>\n' +
    '\t<Cube>\n' +
    body +
    '\t</Cube>\n' +
    '</gesmes:Envelope>\n'
  );
}
