/** The version `context-engine --version` prints and the MCP server reports (the package's). */
export const CLI_VERSION = "0.1.0";
