/** One CSV record and the physical line it starts on (the header is line 1). */
export type CsvRecord = { line: number; cells: string[] };

export class CsvSyntaxError extends Error {
  constructor(readonly line: number, message: string) {
    super(`line ${line}: ${message}`);
  }
}

/**
 * Streams the records of an RFC 4180 text (`,` separator, `"` quoting with `""` inside, CRLF or LF,
 * line breaks inside quoted cells). A leading byte-order mark is dropped. Malformed quoting throws.
 */
export function* csvRecords(text: string): Generator<CsvRecord> {
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;
  const n = text.length;
  while (i < n) {
    const start = line;
    const cells: string[] = [];
    for (;;) {
      let cell = '';
      if (text[i] === '"') {
        i++;
        for (;;) {
          const q = text.indexOf('"', i);
          if (q < 0) throw new CsvSyntaxError(start, 'a quoted cell is not closed');
          const chunk = text.slice(i, q);
          for (let k = chunk.indexOf('\n'); k >= 0; k = chunk.indexOf('\n', k + 1)) line++;
          cell += chunk;
          if (text[q + 1] === '"') {
            cell += '"';
            i = q + 2;
            continue;
          }
          i = q + 1;
          break;
        }
        if (i < n && text[i] !== ',' && text[i] !== '\n' && text[i] !== '\r') throw new CsvSyntaxError(line, 'text after a closing quote');
      } else {
        let j = i;
        while (j < n && text[j] !== ',' && text[j] !== '\n' && text[j] !== '\r') j++;
        cell = text.slice(i, j);
        if (cell.includes('"')) throw new CsvSyntaxError(line, 'a quote inside an unquoted cell');
        i = j;
      }
      cells.push(cell);
      if (text[i] === ',') {
        i++;
        continue;
      }
      if (text[i] === '\r') i++;
      if (text[i] === '\n') i++;
      line++;
      break;
    }
    if (!(cells.length === 1 && cells[0] === '')) yield { line: start, cells };
  }
}
