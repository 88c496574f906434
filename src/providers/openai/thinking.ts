/**
 * The `thinking` switch of `createOpenAI` (a providers config's
 * `enable_thinking`) as the request fields each OpenAI-compatible server
 * reads: no two name it alike.
 * @module
 */
import { ConfigError } from '../../core/errors.js';

type Fields = Record<string, unknown>;

/** Hosted APIs by host name (the host or a subdomain of it) and the fields they take. */
const HOSTED: ReadonlyArray<{ hosts: readonly string[]; fields: (on: boolean) => Fields }> = [
  // Alibaba Cloud Model Studio (DashScope): Qwen, and the GLM and DeepSeek models it serves.
  { hosts: ['aliyuncs.com'], fields: (on) => ({ enable_thinking: on }) },
  // DeepSeek, Zhipu GLM (bigmodel.cn, z.ai) and Moonshot Kimi.
  {
    hosts: ['api.deepseek.com', 'open.bigmodel.cn', 'api.z.ai', 'api.moonshot.ai', 'api.moonshot.cn'],
    fields: (on) => ({ thinking: { type: on ? 'enabled' : 'disabled' } }),
  },
];

function hostOf(baseURL: string): string {
  try {
    return new URL(baseURL).hostname.toLowerCase();
  } catch {
    return '';
  }
}

/**
 * The body fields that turn thinking on or off on the server at `baseURL`.
 * A self-hosted or unknown server gets the chat template's switches
 * (`chat_template_kwargs`, read by vLLM, SGLang and llama.cpp): Qwen3 and
 * GLM templates read `enable_thinking`, DeepSeek-V3.1's `thinking`.
 * @throws ConfigError for OpenAI's own API, which has no such switch.
 */
export function thinkingFields(baseURL: string, on: boolean): Fields {
  const host = hostOf(baseURL);
  if (host === 'api.openai.com') {
    throw new ConfigError(
      `createOpenAI: thinking (a providers config's enable_thinking) has no field on OpenAI's API (${baseURL}); ` +
        "OpenAI's reasoning models always reason: set reasoningEffort on a Responses model instead, or drop it",
    );
  }
  const known = HOSTED.find(({ hosts }) => hosts.some((h) => host === h || host.endsWith(`.${h}`)));
  return known ? known.fields(on) : { chat_template_kwargs: { enable_thinking: on, thinking: on } };
}
