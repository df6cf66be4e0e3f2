// Drive OpenClaw's own bootstrap code on one corpus case; run under the Node its release needs.
//
// Usage: node openclaw.mjs PACKAGE_DIR CASE_DIR   (a fresh copy; prints JSON on stdout)
//
// Calls, for each session kind, the release's own
// resolveBootstrapContextForRun({workspaceDir, config, sessionKey, sessionId, agentId, chatType, warn}):
// the function its embedded agent runner calls to load the workspace bootstrap
// files, filter them for the session, and build the bootstrap context entries
// ({path, content}) that go into the system prompt's Project Context. In
// 2026.1.29 it is dist/agents/bootstrap-files.js; in the bundled releases it is
// found by name in dist/*.js|*.mjs and taken through the chunk's export map.
// HOME and OPENCLAW_STATE_DIR point inside the case folder, so nothing outside it
// is read or written; the caller records what the host created or changed.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [pkg, caseDir] = process.argv.slice(2);
const home = path.join(path.resolve(caseDir), "home");
process.env.HOME = path.join(path.resolve(caseDir), "user-home");
process.env.OPENCLAW_STATE_DIR = path.join(path.resolve(caseDir), "state");
process.env.OPENCLAW_CONFIG_PATH = path.join(process.env.OPENCLAW_STATE_DIR, "openclaw.json");
process.env.OPENCLAW_LOG_LEVEL = "silent";
process.env.NO_COLOR = "1";

const KINDS = {
  main: { sessionKey: "agent:main:main" },
  group: { sessionKey: "agent:main:telegram:group:g1", chatType: "group" },
  channel: { sessionKey: "agent:main:discord:channel:c1", chatType: "channel" },
  subagent: { sessionKey: "agent:main:subagent:s1" },
  cron: { sessionKey: "agent:main:cron:c1" },
};

function findFunction(name) {
  const dist = path.join(pkg, "dist");
  const unbundled = path.join(dist, "agents", "bootstrap-files.js");
  if (fs.existsSync(unbundled)) return { file: unbundled, exportName: name };
  const pattern = new RegExp(`(?:async )?function ${name}\\(`);
  for (const entry of fs.readdirSync(dist).sort()) {
    if (!/\.m?js$/.test(entry)) continue;
    const file = path.join(dist, entry);
    const text = fs.readFileSync(file, "utf8");
    if (!pattern.test(text)) continue;
    const exports = text.match(/export \{([^}]*)\};?\s*$/);
    if (!exports) continue;
    for (const item of exports[1].split(",")) {
      const [local, as] = item.trim().split(/\s+as\s+/);
      if (local === name) return { file, exportName: as ?? local };
    }
  }
  throw new Error(`${name} not found in ${dist}`);
}

const found = findFunction("resolveBootstrapContextForRun");
const module = await import(pathToFileURL(found.file).href);
const resolveBootstrapContextForRun = module[found.exportName];
const config = {};
const kinds = {};
for (const [kind, session] of Object.entries(KINDS)) {
  const warnings = [];
  try {
    const { bootstrapFiles, contextFiles } = await resolveBootstrapContextForRun({
      workspaceDir: home,
      config,
      sessionKey: session.sessionKey,
      sessionId: `golden-${kind}`,
      agentId: "main",
      ...(session.chatType ? { chatType: session.chatType } : {}),
      warn: (message) => warnings.push(String(message)),
    });
    kinds[kind] = {
      bootstrap_files: bootstrapFiles.map((file) => ({ name: file.name, path: file.path, missing: Boolean(file.missing) })),
      context_files: contextFiles.map((entry) => ({ path: entry.path, content: entry.content })),
      warnings,
    };
  } catch (error) {
    kinds[kind] = { raised: `${error?.name ?? "Error"}: ${error?.message ?? String(error)}` };
  }
}
const named = found.exportName === "resolveBootstrapContextForRun" ? "" : `${found.exportName} = `;
const answer = JSON.stringify({ function: `${path.relative(pkg, found.file)}: ${named}resolveBootstrapContextForRun`, kinds });
// Exit once the answer is written (a pipe takes it in pieces); the host may leave timers running.
process.stdout.write(answer, () => process.exit(0));
