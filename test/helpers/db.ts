/** Read a results database in a test: one SQL query, the store opened read-only and closed again. */
import { ResultStore } from '../../src/store/db.js';

export async function query(db: string, sql: string): Promise<Record<string, unknown>[]> {
  const s = await ResultStore.open(db, { readOnly: true });
  try {
    return await s.query(sql);
  } finally {
    s.close();
  }
}
