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
// found by name in dist/*.js|*.mjs and taken through the chunk's export map, or
// rebuilt from its exported parts where the bundle keeps it private (see resolver()).
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

function exportsOf(text) {
  const exports = text.match(/export \{([^}]*)\};?\s*$/);
  const map = new Map();
  for (const item of exports ? exports[1].split(",") : []) {
    const [local, as] = item.trim().split(/\s+as\s+/);
    map.set(local, as ?? local);
  }
  return map;
}

// The chunk (first by name) that defines and exports every one of `names`: {file, exported: name -> export}.
function findExported(names) {
  const dist = path.join(pkg, "dist");
  for (const entry of fs.readdirSync(dist).sort()) {
    if (!/\.m?js$/.test(entry)) continue;
    const file = path.join(dist, entry);
    const text = fs.readFileSync(file, "utf8");
    if (!names.every((name) => new RegExp(`(?:async )?function ${name}\\(`).test(text))) continue;
    const map = exportsOf(text);
    if (names.every((name) => map.has(name))) return { file, exported: Object.fromEntries(names.map((n) => [n, map.get(n)])) };
  }
  return null;
}

async function load(found) {
  const module = await import(pathToFileURL(found.file).href);
  return Object.fromEntries(Object.entries(found.exported).map(([name, as]) => [name, module[as]]));
}

// The release's own resolveBootstrapContextForRun: exported as a module (2026.1.29) or from a chunk; where a
// release's bundle keeps it private (2026.2.22), its body rebuilt from the release's own exported parts, as
// that release writes it: buildBootstrapContextFiles(filterBootstrapFilesForSession(await
// loadWorkspaceBootstrapFiles(dir), sessionKey), {maxChars, totalMaxChars}) (no bootstrap hook is registered).
async function resolver() {
  const unbundled = path.join(pkg, "dist", "agents", "bootstrap-files.js");
  if (fs.existsSync(unbundled)) {
    const module = await import(pathToFileURL(unbundled).href);
    return { how: "dist/agents/bootstrap-files.js: resolveBootstrapContextForRun", run: module.resolveBootstrapContextForRun };
  }
  const direct = findExported(["resolveBootstrapContextForRun"]);
  if (direct) {
    const { resolveBootstrapContextForRun } = await load(direct);
    return { how: `${path.relative(pkg, direct.file)}: ${direct.exported.resolveBootstrapContextForRun} = resolveBootstrapContextForRun`,
             run: resolveBootstrapContextForRun };
  }
  const workspace = findExported(["loadWorkspaceBootstrapFiles", "filterBootstrapFilesForSession"]);
  const helpers = findExported(["buildBootstrapContextFiles", "resolveBootstrapMaxChars", "resolveBootstrapTotalMaxChars"]);
  if (!workspace || !helpers) throw new Error(`no resolveBootstrapContextForRun nor its parts in ${pkg}/dist`);
  const w = await load(workspace);
  const h = await load(helpers);
  const run = async (params) => {
    const bootstrapFiles = w.filterBootstrapFilesForSession(await w.loadWorkspaceBootstrapFiles(params.workspaceDir),
      params.sessionKey ?? params.sessionId);
    return { bootstrapFiles, contextFiles: h.buildBootstrapContextFiles(bootstrapFiles, {
      maxChars: h.resolveBootstrapMaxChars(params.config), totalMaxChars: h.resolveBootstrapTotalMaxChars(params.config),
      warn: params.warn }) };
  };
  return { how: `resolveBootstrapContextForRun (private in its chunk) rebuilt from ${path.relative(pkg, workspace.file)}: `
    + `loadWorkspaceBootstrapFiles, filterBootstrapFilesForSession and ${path.relative(pkg, helpers.file)}: `
    + "buildBootstrapContextFiles, resolveBootstrapMaxChars, resolveBootstrapTotalMaxChars", run };
}

const { how, run: resolveBootstrapContextForRun } = await resolver();
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
const answer = JSON.stringify({ function: how, kinds });
// Exit once the answer is written (a pipe takes it in pieces); the host may leave timers running.
process.stdout.write(answer, () => process.exit(0));
