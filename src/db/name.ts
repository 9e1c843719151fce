/** The name of Pixmill's IndexedDB database (one place: the Dexie schema and the existence check use it). */
export const DB_NAME = 'pixmill';
