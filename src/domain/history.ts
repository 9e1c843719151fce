/** The works history as GET /api/job/record answers it (one shape for server and client). */

export interface HistoryRecord {
  trans_id: string;
  uid: string;
  job: string;
  status: 'queued' | 'running' | 'finished' | 'failed';
  filename: string | null;
  w: number | null;
  h: number | null;
  result_w: number | null;
  result_h: number | null;
  created_at: number;
  finished_at: number | null;
  thumbsup: number | null;
  /** retention deleted the result, source and thumbnail (the row is kept) */
  expired: boolean;
}

/** A page of a paged list (history, workflows): page from 1. */
export interface Page<T> {
  datas: T[];
  current_page: number;
  total: number;
  last_page: number;
}
