/**
 * A loopback OpenAI-compatible server for the consumer cells: it answers
 * `POST …/chat/completions` from a script (a 429, a tool call, a text), in
 * SSE when the request streams, and records every request body.
 */
const { createServer } = require('node:http');

function sse(chunks) {
  return `${chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join('')}data: [DONE]\n\n`;
}

function completion(reply, stream) {
  const message = reply.toolCalls
    ? {
        role: 'assistant',
        content: null,
        tool_calls: reply.toolCalls.map((call, i) => ({
          id: `call_${i}`,
          type: 'function',
          function: { name: call.name, arguments: JSON.stringify(call.args) },
        })),
      }
    : { role: 'assistant', content: reply.text };
  const finish = reply.toolCalls ? 'tool_calls' : 'stop';
  const usage = { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 };
  const base = { id: 'chatcmpl-1', created: 1, model: 'local-model' };
  if (!stream) {
    return JSON.stringify({
      ...base,
      object: 'chat.completion',
      choices: [{ index: 0, message, finish_reason: finish }],
      usage,
    });
  }
  const delta = message.tool_calls
    ? { role: 'assistant', tool_calls: message.tool_calls.map((call, index) => ({ index, ...call })) }
    : { role: 'assistant', content: message.content };
  const chunk = (choice, extra = {}) => ({
    ...base,
    object: 'chat.completion.chunk',
    choices: [choice],
    ...extra,
  });
  return sse([
    chunk({ index: 0, delta, finish_reason: null }),
    chunk({ index: 0, delta: {}, finish_reason: finish }, { usage }),
  ]);
}

/** Starts the server on 127.0.0.1; `replies` are used in order, one per request. */
exports.startOpenAIServer = function startOpenAIServer(replies) {
  const requests = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const request = JSON.parse(body || '{}');
      requests.push(request);
      const reply = replies[requests.length - 1];
      if (!reply) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `unscripted request #${requests.length}` } }));
      } else if (reply.status) {
        res.writeHead(reply.status, { 'content-type': 'application/json', 'retry-after-ms': '1' });
        res.end(JSON.stringify({ error: { message: 'Rate limit reached', type: 'rate_limit_exceeded' } }));
      } else {
        res.writeHead(200, { 'content-type': request.stream ? 'text/event-stream' : 'application/json' });
        res.end(completion(reply, request.stream));
      }
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        baseURL: `http://127.0.0.1:${server.address().port}/v1`,
        requests,
        close: () => new Promise((done) => server.close(done)),
      }),
    ),
  );
};
