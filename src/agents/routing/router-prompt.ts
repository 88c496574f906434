/**
 * The router's system prompt, replaceable through `RouterOptions.prompt`.
 * @module
 */

/** An agent the router can pick. */
export interface AgentDescriptor {
  name: string;
  description: string;
  /** Example queries this agent handles; the prompt lists them under the agent (seed 003). */
  examples?: readonly string[];
}

/**
 * The router's default system prompt: the agents, each with its example
 * queries when it has some, and the reply format `{agent, confidence, reason}`.
 */
export function defaultRouterPrompt(agents: readonly AgentDescriptor[]): string {
  const list = agents.map((a, i) => `${i + 1}. ${a.name} - ${a.description}${examplesOf(a)}`).join('\n');
  return `You route a user's query to the agent best suited to handle it.

Available agents:
${list}

Respond ONLY with JSON, no other text:
{"agent": "<agent name>", "confidence": <number from 0.0 to 1.0>, "reason": "one short sentence"}`;
}

/** The agent's examples as indented lines, quoted so the model reads them as queries. */
function examplesOf(agent: AgentDescriptor): string {
  const examples = agent.examples ?? [];
  return examples.map((e) => `\n   Example: "${e}"`).join('');
}
