/**
 * Alert webhook URLs sealed for Redis (AES-256-GCM): a credential must not be readable from a
 * stored value. The key is derived (HKDF-SHA256) from the job key every worker already holds to
 * check job seals (LISTING_SYNC_JOB_KEY, or derived from API_SECRET_KEY), so delivering needs no
 * new setting, and a Redis reader without that key learns only the endpoint's scheme and host.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/** A sealed URL as stored: version, nonce, GCM tag and ciphertext, each base64url. */
export interface SealedWebhook {
  v: 1;
  iv: string;
  tag: string;
  data: string;
}

/** Seals URLs for storing and opens them for delivering; `open` throws when the value was not sealed under this key or was altered. */
export interface WebhookSeal {
  seal(url: string): SealedWebhook;
  open(sealed: SealedWebhook): string;
}

const INFO = 'listing-sync webhook v1';
const CIPHER = 'aes-256-gcm';
const IV_BYTES = 12;
/** The full GCM tag: a shorter one given back would be accepted otherwise, and be easier to forge. */
const TAG_BYTES = 16;

/** The seal under a key derived from `jobKey`. */
export function webhookSealOf(jobKey: string): WebhookSeal {
  const key = Buffer.from(hkdfSync('sha256', jobKey, Buffer.alloc(0), INFO, 32));
  return {
    seal(url) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv(CIPHER, key, iv, { authTagLength: TAG_BYTES });
      const data = Buffer.concat([cipher.update(url, 'utf8'), cipher.final()]);
      return { v: 1, iv: iv.toString('base64url'), tag: cipher.getAuthTag().toString('base64url'), data: data.toString('base64url') };
    },
    open(sealed) {
      const decipher = createDecipheriv(CIPHER, key, Buffer.from(sealed.iv, 'base64url'), { authTagLength: TAG_BYTES });
      decipher.setAuthTag(Buffer.from(sealed.tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(sealed.data, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}
