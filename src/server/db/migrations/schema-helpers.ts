import { sql, type ColumnDefinitionBuilder, type Kysely } from 'kysely';

/**
 * Building blocks of the migrations. FROZEN: migrations that have run on real databases build
 * their DDL with these, so what each one produces must never change (on SQLite or PostgreSQL).
 * This file may only grow: a migration that needs something else gets a new helper.
 */

/**
 * A table whose first column is its id: `serial primary key` on PostgreSQL, `integer primary key
 * autoincrement` on SQLite (ids never reused).
 */
export const createTableWithId = (
  db: Kysely<unknown>,
  dialect: 'sqlite' | 'postgres',
  table: string,
) =>
  db.schema
    .createTable(table)
    .addColumn('id', dialect === 'postgres' ? 'serial' : 'integer', (col) =>
      dialect === 'postgres' ? col.primaryKey() : col.primaryKey().autoIncrement(),
    );

/**
 * A column that must name a row of `target` (`table.id`) and goes when that row goes: `not null
 * references … on delete cascade`.
 */
export const belongsTo =
  (target: string) =>
  (col: ColumnDefinitionBuilder): ColumnDefinitionBuilder =>
    col.notNull().references(target).onDelete('cascade');

/** An index: its columns in order; `unique`; `whereNull`: only the rows where that column is null. */
export interface IndexDefinition {
  columns: readonly string[];
  unique?: boolean;
  whereNull?: string;
}

/** Creates indexes of one table, in the order given (by name). */
export const createIndexes = async (
  db: Kysely<unknown>,
  table: string,
  indexes: Record<string, IndexDefinition>,
): Promise<void> => {
  for (const [name, { columns, unique = false, whereNull }] of Object.entries(indexes)) {
    let index = db.schema
      .createIndex(name)
      .on(table)
      .columns([...columns]);
    if (unique) index = index.unique();
    if (whereNull !== undefined) index = index.where(sql.ref(whereNull), 'is', null);
    await index.execute();
  }
};
