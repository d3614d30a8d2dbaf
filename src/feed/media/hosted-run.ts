/** A replication run whose pages come with their photos hosted (photo-hosting.ts), page by page as they are pulled. */
import type { ReplicationRun } from '../reso-api/replicate.js';
import type { ReplicationResult, ResoRecord } from '../reso-api/types.js';
import type { PhotoHosting } from './photo-hosting.js';

export function hostedRun(run: ReplicationRun, hosting: PhotoHosting): ReplicationRun {
  async function* pages(): AsyncGenerator<ResoRecord[], ReplicationResult, undefined> {
    for (let page = await run.pages.next(); page.done !== true; page = await run.pages.next()) {
      await hosting.hostPage(page.value);
      yield page.value;
    }
    return run.result();
  }
  return { pages: pages(), result: () => run.result() };
}
