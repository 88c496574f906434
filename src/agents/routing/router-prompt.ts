/**
 * The router's system prompt, replaceable through `RouterOptions.prompt`.
 * @module
 */

/** An agent the router can pick. */
export interface AgentDescriptor {
  name: string;
  description: string;
}

/** The router's default system prompt: the agents and the reply format `{agent, confidence, reason}`. */
export function defaultRouterPrompt(agents: readonly AgentDescriptor[]): string {
  const list = agents.map((a, i) => `${i + 1}. ${a.name} - ${a.description}`).join('\n');
  return `You route a user's query to the agent best suited to handle it.

Available agents:
${list}

Respond ONLY with JSON, no other text:
{"agent": "<agent name>", "confidence": <number from 0.0 to 1.0>, "reason": "one short sentence"}`;
}
