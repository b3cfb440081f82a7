/** The one row an INSERT … RETURNING (or another statement that always answers a row) gave; throws when there is none. */
export function returnedRow<T>(rows: readonly T[], statement: string): T {
  const [row] = rows;
  if (row === undefined) throw new Error(`${statement} answered no row`);
  return row;
}
