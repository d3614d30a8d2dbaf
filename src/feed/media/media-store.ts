/**
 * Where hosted photos are kept: a directory (`file:///ABS/DIR`) or an S3-compatible bucket
 * (`s3://BUCKET[/PREFIX]`). Objects are named by their content (object-key.ts), so a put of a key
 * that exists changes nothing and two processes storing the same photo cannot conflict.
 */

/** One stored object as a listing of the store sees it. */
export interface StoredObject {
  key: string;
  /** When it was last written (epoch ms). */
  modifiedMs: number;
  bytes: number;
}

export interface MediaStore {
  /** The store as given (`file:///…`, `s3://…`), for messages. */
  readonly url: string;
  /**
   * A directory where a download may be staged: on the file store's own file system, so that
   * storing it is a rename. The caller removes what it staged when the put failed.
   */
  readonly stagingDir: string;
  /** Stores the staged file `path` (its bytes already hashed into `key`) under `key`; the staged file is gone afterwards. */
  put(key: string, path: string, object: { bytes: number; contentType: string }): Promise<void>;
  /** Whether an object exists under `key`. */
  has(key: string): Promise<boolean>;
  /** Every object this tool made (keys of other shapes are left out). */
  list(): AsyncIterable<StoredObject>;
  /** Removes one object; none under `key` is not an error. */
  remove(key: string): Promise<void>;
  /** Releases what the store holds open. */
  close(): Promise<void>;
}
