import SQLite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { SQLITE_STATEMENT_CACHE, withStatementCache } from './db.js';

describe('SQLite statement cache', () => {
  it('hands out the same prepared statement for the same text, and drops the least recently used beyond its size', () => {
    const file = new SQLite(':memory:');
    const db = withStatementCache(file);
    const a = db.prepare('select 1 as one');
    expect(db.prepare('select 1 as one')).toBe(a);
    for (let i = 0; i < SQLITE_STATEMENT_CACHE; i++) db.prepare(`select ${i + 2} as n`);
    // 'select 1' was the least recently used: it was dropped and is prepared anew
    expect(db.prepare('select 1 as one')).not.toBe(a);
    db.close();
  });

  it('a kept statement reads the schema as it is now (SQLite re-prepares it after a change)', () => {
    const file = new SQLite(':memory:');
    const db = withStatementCache(file);
    file.exec('create table t (a integer); insert into t values (1)');
    expect(db.prepare('select * from t').all([])).toEqual([{ a: 1 }]);
    file.exec('alter table t add column b text');
    file.exec("update t set b = 'x'");
    expect(db.prepare('select * from t').all([])).toEqual([{ a: 1, b: 'x' }]);
    db.close();
  });
});
