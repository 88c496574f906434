/**
 * The parts of the Gemini `generateContent` wire format this adapter reads
 * and writes. Only the fields it uses; the API sends more.
 * @module
 */

/** A function call the model asks for. Vertex streams arguments as `partialArgs`. */
export interface GeminiFunctionCall {
  id?: string;
  name?: string;
  args?: Record<string, unknown>;
  partialArgs?: GeminiPartialArg[];
  willContinue?: boolean;
}

/** A piece of a streamed function-call argument, addressed by JSON path. */
export interface GeminiPartialArg {
  jsonPath?: string;
  stringValue?: string;
  numberValue?: number;
  boolValue?: boolean;
  nullValue?: unknown;
  willContinue?: boolean;
}

/** One part of a content. `thoughtSignature` must come back on the same part. */
export interface GeminiPart {
  text?: string;
  thought?: boolean;
  thoughtSignature?: string;
  functionCall?: GeminiFunctionCall;
  functionResponse?: { id?: string; name: string; response: Record<string, unknown> };
  /** Bytes of an image or file, base64. */
  inlineData?: { mimeType: string; data: string };
  /** An image or file by URI. */
  fileData?: { mimeType: string; fileUri: string };
}

/** One turn. Gemini calls the assistant `model`; function responses travel as `user`. */
export interface GeminiContent {
  role: 'user' | 'model';
  parts: GeminiPart[];
}

/** Token counts; `candidatesTokenCount` leaves out thinking, which is `thoughtsTokenCount`. */
export interface GeminiUsage {
  promptTokenCount?: number;
  candidatesTokenCount?: number;
  thoughtsTokenCount?: number;
  cachedContentTokenCount?: number;
  toolUsePromptTokenCount?: number;
}

/** One candidate reply. */
export interface GeminiCandidate {
  content?: { role?: string; parts?: GeminiPart[] };
  finishReason?: string;
  finishMessage?: string;
}

/** A `generateContent` reply, or one chunk of a streamed one. */
export interface GeminiResponseBody {
  candidates?: GeminiCandidate[];
  usageMetadata?: GeminiUsage;
  promptFeedback?: { blockReason?: string };
  responseId?: string;
  modelVersion?: string;
  error?: unknown;
}

/** The body of `models/<model>:generateContent`. */
export interface GeminiRequestBody {
  contents: GeminiContent[];
  systemInstruction?: { parts: Array<{ text: string }> };
  tools?: Array<{
    functionDeclarations: Array<{ name: string; description: string; parametersJsonSchema: unknown }>;
  }>;
  toolConfig?: { functionCallingConfig: { mode: 'AUTO' | 'ANY' | 'NONE'; allowedFunctionNames?: string[] } };
  generationConfig?: Record<string, unknown>;
  [key: string]: unknown;
}
