/**
 * The head row of a table whose cells name their column (data-label) for the narrow layout: one header per column,
 * in the order of `columns`.
 */
export function TableHead({ columns }: { columns: Record<string, string> }) {
  return (
    <thead>
      <tr>
        {Object.values(columns).map((name) => (
          <th key={name} scope="col">
            {name}
          </th>
        ))}
      </tr>
    </thead>
  );
}
