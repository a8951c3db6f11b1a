// Errors shaped as WebLLM 0.2.86 throws them: its class name and message, so
// a test that expects the fake's refusal expects exactly what WebLLM would say.

export function webllmError(name: string, message: string): Error {
  const error = new Error(message);
  error.name = name;
  return error;
}
