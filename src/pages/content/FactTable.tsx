/** A text page's table of facts: a header row, then one row a fact; it scrolls sideways on narrow screens. */
import type { ReactNode } from 'react';

export function FactTable({
  head,
  rows,
  testId,
}: {
  head: readonly string[];
  rows: readonly (readonly ReactNode[])[];
  testId?: string;
}) {
  return (
    <div className="table-scroll">
      <table className="fact-table" data-testid={testId}>
        <thead>
          <tr>
            {head.map((h) => (
              <th key={h}>{h}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((cells, i) => (
            // A page's facts are a fixed list: the row's place is its identity.
            <tr key={i}>
              {cells.map((c, j) => (
                <td key={j}>{c}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
