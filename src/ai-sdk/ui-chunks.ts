// A tabagent run's stream parts as the AI SDK UI's message chunks: what
// `useChat` builds its messages from. The same mapping serves a live run and
// a stored one (a chat reopened after a reload), so both show alike.
//
// - A step opens with `start-step` at its first text, reasoning or call,
//   and ends with `finish-step`.
// - A call of a tool tabagent runs (a managed tool) is `providerExecuted`:
//   `useChat` neither hands it to `onToolCall` nor waits for the app's
//   output. A raw tool's call is the app's to answer (`addToolOutput`).
// - A call that waits for approval is a `tool-approval-request` whose
//   approval id is the call's id; a denial is the approval's answer, then
//   `tool-output-denied`.
// - A handler's progress (`ctx.update`) is a transient data part,
//   `data-tool-progress`, for `onData`.
// - A call as the model writes it is `tool-input-start` and
//   `tool-input-delta`s under the call's id (useChat shows it
//   `input-streaming`, its input parsed as far as it goes); the call, once
//   read, takes that part over. One that turns out to be no call (an opener
//   in prose) becomes a `tool-input-error`: the UI has no chunk that takes a
//   part back, and a part left streaming would never end.
import type { UIMessageChunk } from 'ai';
import type { StreamPart } from '../run/chat-stream.js';
import type { Reply } from '../shared/chat.js';

type Enqueue = (chunk: UIMessageChunk) => void;

export class UiChunks {
  #step: number | undefined;
  #text: string | undefined;
  #reasoning: string | undefined;
  #parts = 0;
  /** The tool each call being written names, by its id. */
  readonly #writing = new Map<string, string>();

  constructor(
    private readonly enqueue: Enqueue,
    /** Whether tabagent runs the tool (managed) or the app answers its calls (raw). */
    private readonly runsTool: (name: string) => boolean,
  ) {}

  part(part: StreamPart): void {
    const out = this.enqueue;
    switch (part.type) {
      case 'text':
        this.#open(part.step);
        this.#endReasoning();
        if (this.#text === undefined) out({ type: 'text-start', id: (this.#text = this.#id('text')) });
        out({ type: 'text-delta', id: this.#text, delta: part.text });
        break;
      case 'reasoning':
        this.#open(part.step);
        this.#endText();
        if (this.#reasoning === undefined) out({ type: 'reasoning-start', id: (this.#reasoning = this.#id('reasoning')) });
        out({ type: 'reasoning-delta', id: this.#reasoning, delta: part.text });
        break;
      case 'tool-input-start':
        this.#open(part.step);
        this.#endText();
        this.#endReasoning();
        this.#writing.set(part.callId, part.toolName);
        out({ type: 'tool-input-start', toolCallId: part.callId, toolName: part.toolName, providerExecuted: this.runsTool(part.toolName) });
        break;
      case 'tool-input-delta':
        out({ type: 'tool-input-delta', toolCallId: part.callId, inputTextDelta: part.delta });
        break;
      case 'tool-input-end': {
        const toolName = this.#writing.get(part.callId);
        this.#writing.delete(part.callId);
        if (!part.call && toolName !== undefined) out({ type: 'tool-input-error', toolCallId: part.callId, toolName, input: undefined, errorText: 'The model wrote this as a call, but it was not one.', providerExecuted: this.runsTool(toolName) });
        break;
      }
      case 'tool-call': {
        this.#open(part.step);
        this.#endText();
        this.#endReasoning();
        const { id: toolCallId, name: toolName, arguments: input, error } = part.call;
        const providerExecuted = this.runsTool(toolName);
        if (error) out({ type: 'tool-input-error', toolCallId, toolName, input, errorText: error, providerExecuted });
        else out({ type: 'tool-input-available', toolCallId, toolName, input, providerExecuted });
        break;
      }
      case 'approval-request':
        out({ type: 'tool-approval-request', approvalId: part.callId, toolCallId: part.callId });
        break;
      case 'tool-progress':
        out({ type: 'data-tool-progress', id: part.callId, data: { toolCallId: part.callId, toolName: part.toolName, details: part.details }, transient: true });
        break;
      case 'tool-result': {
        const { callId: toolCallId, content, status } = part.result;
        const read = readJson(content);
        if (status === 'ok') out({ type: 'tool-output-available', toolCallId, output: read });
        else if (status === 'denied') {
          out({ type: 'tool-approval-response', approvalId: toolCallId, approved: false, reason: reasonOf(read) });
          out({ type: 'tool-output-denied', toolCallId });
        } else out({ type: 'tool-output-error', toolCallId, errorText: errorTextOf(read, content) });
        break;
      }
      case 'step-end':
        this.#open(part.step);
        this.#close();
        break;
      case 'final':
        this.#close();
        break;
    }
  }

  /** The end of the stream: what the run's reply says of it. */
  finish(reply: Reply | undefined): void {
    this.#close();
    this.enqueue({ type: 'finish', ...(reply ? { finishReason: finishReasonOf(reply) } : {}) });
  }

  #open(step: number): void {
    if (this.#step === step) return;
    this.#close();
    this.#step = step;
    this.enqueue({ type: 'start-step' });
  }

  #close(): void {
    if (this.#step === undefined) return;
    this.#endText();
    this.#endReasoning();
    this.#step = undefined;
    this.enqueue({ type: 'finish-step' });
  }

  #endText(): void {
    if (this.#text !== undefined) this.enqueue({ type: 'text-end', id: this.#text });
    this.#text = undefined;
  }

  #endReasoning(): void {
    if (this.#reasoning !== undefined) this.enqueue({ type: 'reasoning-end', id: this.#reasoning });
    this.#reasoning = undefined;
  }

  #id(kind: string): string {
    return `${kind}-${this.#parts++}`;
  }
}

function finishReasonOf(reply: Reply): 'stop' | 'length' | 'tool-calls' | 'error' | 'other' {
  if (reply.toolCalls.length || reply.approvals?.length) return 'tool-calls';
  return reply.finishReason === 'stop' || reply.finishReason === 'length' || reply.finishReason === 'error' ? reply.finishReason : 'other';
}

/** A result as the model read it: JSON (or, cut with a marker, the text). */
function readJson(content: string): unknown {
  try {
    return JSON.parse(content);
  } catch {
    return content;
  }
}

function reasonOf(value: unknown): string | undefined {
  const reason = (value as { reason?: unknown } | null)?.reason;
  return typeof reason === 'string' ? reason : undefined;
}

function errorTextOf(value: unknown, content: string): string {
  const error = (value as { error?: unknown } | null)?.error ?? reasonOf(value);
  return typeof error === 'string' ? error : content;
}
