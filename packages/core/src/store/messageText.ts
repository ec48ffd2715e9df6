/** The flattened text the session store indexes for search (content, then tool calls as `name(arguments)`). */
export { searchableText as searchableMessageText } from "../messages/text.js";
