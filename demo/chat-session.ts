// One open chat on screen: sends a message, streams the reply into the
// transcript, turns the chat's events into tool cards, and answers the calls
// that come back to the page.
import type { Chat, ChatStream, Reply, Tool, ToolCall, ToolResultInput } from '../src/index.js';
import { answerOnPage } from './tools.js';
import type { ToolCard } from './ui/tool-card.js';
import type { Transcript, TurnView } from './ui/transcript.js';

/** What the model reads for calls a reload left unanswered: the page cannot know what they would have said. */
const RELOADED = 'The page was reloaded before this call was answered.';

export class ChatSession {
  #turn: TurnView | null = null;
  /** How many stored messages the transcript shows, to notice what another tab added. */
  #shown = 0;
  readonly #unsubscribe: Array<() => void>;

  constructor(
    readonly chat: Chat,
    private readonly transcript: Transcript,
    onMessages: () => void,
  ) {
    // Events arrive synchronously as the run goes, so a hop's segment and its
    // cards are placed in order, whenever the stream's text is read.
    this.#unsubscribe = [
      chat.on('model-start', ({ hop }) => this.#turn?.beginHop(hop)),
      chat.on('model-end', ({ toolCalls }) => this.#turn?.addCalls(toolCalls)),
      chat.on('tool-start', ({ callId }) => this.card(callId)?.running()),
      chat.on('tool-progress', ({ callId, details }) => this.card(callId)?.progress(details)),
      chat.on('tool-denied', ({ callId, reason }) => this.card(callId)?.denied(reason)),
      chat.on('tool-end', ({ callId, content, isError, durationMs, attempts }) => this.card(callId)?.finished(content, isError, durationMs, attempts)),
      chat.on('context-trimmed', ({ dropped }) => transcript.contextTrimmed(dropped)),
      chat.on('messages', () => {
        // Another tab wrote to this chat while this one was idle: redraw it.
        if (!this.busy && chat.messages.length !== this.#shown) this.showHistory();
        onMessages();
      }),
    ];
  }

  get busy(): boolean {
    return this.#turn !== null;
  }

  readonly toolOf = (name: string): Tool | undefined => this.chat.tools.find((t) => t.name === name);

  /** The card of a call in the reply being written now. */
  card(callId: string): ToolCard | undefined {
    return this.#turn?.card(callId);
  }

  showHistory(): void {
    const messages = this.chat.messages;
    this.transcript.history(messages, this.toolOf);
    this.#shown = messages.length;
  }

  /** Send `text` and show the reply as it comes. Errors end up in the transcript, not thrown. */
  async send(text: string, signal: AbortSignal): Promise<void> {
    this.transcript.user(text);
    const turn = (this.#turn = this.transcript.turn(this.toolOf));
    try {
      // A raw call left waiting by a reload would block the chat: answer it as lost.
      if (this.chat.pendingToolCalls.length) await this.chat.cancelToolCalls(RELOADED);
      let run = turn.nextRun();
      let reply = await this.#read(this.chat.sendStream(text, { signal }), run, turn);
      while (reply.toolCalls.length) {
        const answered = await this.#answer(reply.toolCalls, signal);
        if ('reply' in answered) {
          reply = answered.reply;
          turn.addStats(reply.stats);
          turn.appendText(turn.nextRun(), 0, reply.text);
          continue;
        }
        run = turn.nextRun();
        reply = await this.#read(this.chat.sendToolResultsStream(answered.results, { signal }), run, turn);
      }
      turn.reasoning(reply.reasoning);
      turn.done();
    } catch (error) {
      if (signal.aborted) turn.stop();
      else turn.fail(error);
    } finally {
      this.#turn = null;
      this.#shown = this.chat.messages.length;
    }
  }

  close(): void {
    for (const off of this.#unsubscribe) off();
    this.chat.close();
  }

  async #read(stream: ChatStream, run: number, turn: TurnView): Promise<Reply> {
    for await (const chunk of stream) {
      if (chunk.type === 'text') turn.appendText(run, chunk.step, chunk.text);
      else if (chunk.type === 'final') {
        turn.addStats(chunk.reply.stats);
        return chunk.reply;
      }
    }
    throw new Error('The reply stream ended without a reply.');
  }

  /**
   * A turn came back because some call is not the loop's to run (a raw tool,
   * an unknown name). Its managed calls run here by hand first; then the page
   * answers the rest, which resumes the model — streamed.
   */
  async #answer(calls: readonly ToolCall[], signal: AbortSignal): Promise<{ results: ToolResultInput[] } | { reply: Reply }> {
    const managed = calls.filter((c) => this.toolOf(c.name)?.kind === 'managed');
    const forPage = calls.filter((c) => !managed.includes(c));
    let last: Reply | undefined;
    for (const call of managed) last = await this.chat.runTool(call, { signal });
    // Only managed calls (possible only with returnToolRequests): the last runTool already ran the model.
    if (forPage.length === 0 && last) return { reply: last };
    const results = forPage.map((call) => {
      const result = answerOnPage(call);
      this.card(call.id)?.answered(result);
      return { callId: call.id, result };
    });
    return { results };
  }
}
