/** Names of the tools tabagent registered itself (registerWebMcpTools): a chat does not take them back as page tools. */
export const ownRegistrations = new Set<string>();
