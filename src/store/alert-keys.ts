/**
 * Redis keys of alerts and chatbot health (kept apart from keys.ts, same prefix and `:ls:` base):
 *
 * | key                                  | type | holds                                                    |
 * |--------------------------------------|------|----------------------------------------------------------|
 * | `{p}:ls:alerts`                      | hash | alert name → JSON AlertConfig (webhook sealed)           |
 * | `{p}:ls:alert-deliveries`            | list | JSON AlertDelivery, newest first, capped                 |
 * | `{p}:ls:alert-state:{{chatbot}}`     | hash | `health` / `c:{alert name}` → JSON HealthState           |
 * | `{p}:ls:health-chatbots`             | set  | chatbots whose health is tracked (no SCAN needed)        |
 *
 * Why `{{chatbot}}` (a literal Redis Cluster hash tag): the state's compare-and-set script touches
 * one key, and every future per-chatbot key of health lands in the chatbot's slot.
 */
export interface AlertKeys {
  configs(): string;
  deliveries(): string;
  state(chatbot: string): string;
  trackedChatbots(): string;
}

export function alertKeys(prefix: string): AlertKeys {
  const base = `${prefix}:ls`;
  return {
    configs: () => `${base}:alerts`,
    deliveries: () => `${base}:alert-deliveries`,
    state: (chatbot) => `${base}:alert-state:{${chatbot}}`,
    trackedChatbots: () => `${base}:health-chatbots`,
  };
}
