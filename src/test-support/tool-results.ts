// What the model read of the tool results in a prompt the fake engine got.

/** Each `<tool_response>` block's text in `prompt`, in the order the model read them. */
export const toolResults = (prompt: string): string[] =>
  prompt
    .split('</tool_response>')
    .filter((block) => block.includes('<tool_response>'))
    .map((block) => block.split('<tool_response>\n')[1]!.trim());
