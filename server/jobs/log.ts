/** A small JSON-lines logger for the runner, which lives outside any request (services never see Fastify). */
const LEVELS = { error: 50, warn: 40, info: 30, debug: 20 } as const;

export interface RunnerLogger {
  error(obj: unknown, msg?: string): void;
  warn(obj: unknown, msg?: string): void;
}

export function serverLogger(level: string): RunnerLogger {
  const min = level === 'silent' ? Infinity : (LEVELS[level as keyof typeof LEVELS] ?? LEVELS.info);
  const write = (lvl: keyof typeof LEVELS, obj: unknown, msg?: string) => {
    if (LEVELS[lvl] < min) return;
    const o = (obj && typeof obj === 'object' ? obj : { value: obj }) as Record<string, unknown>;
    const err = o.err instanceof Error ? { message: o.err.message, stack: o.err.stack } : o.err;
    process.stderr.write(
      JSON.stringify({ level: LEVELS[lvl], time: Date.now(), name: 'runner', msg, ...o, ...(err ? { err } : {}) }) +
        '\n',
    );
  };
  return { error: (o, m) => write('error', o, m), warn: (o, m) => write('warn', o, m) };
}
