/**
 * API reports with API Extractor: for each entry of a package, the report of its public surface
 * (`<package>/etc/<entry>.api.md`) and its doc model (names with their doc comments), from the built
 * declarations in dist/. One TypeScript program serves all entries of a package.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CompilerState, Extractor, ExtractorConfig, ExtractorLogLevel, ExtractorMessageCategory, type ExtractorMessage, type IConfigFile } from "@microsoft/api-extractor";
import type { PackageEntry } from "./entries.js";

/** The folder, inside a package, of its committed API reports. */
export const REPORT_FOLDER = "etc";

/** What API Extractor made for one entry. */
export interface EntryReport {
  entry: PackageEntry;
  /** The committed report's path, relative to the repository root. */
  reportPath: string;
  /** The report as generated now. */
  report: string;
  /** The doc model (`.api.json`) as generated now. */
  docModel: DocModel;
}

/** The part of an `.api.json` doc model that docs/API.md reads. */
export interface DocModel {
  members: Array<{ kind: string; members: DocItem[] }>;
}

/** One exported item of a doc model. */
export interface DocItem {
  kind: string;
  name: string;
  docComment?: string;
}

function configFor(repoRoot: string, entry: PackageEntry, outDir: string): IConfigFile {
  const packageDir = join(repoRoot, entry.packageDir);
  return {
    projectFolder: packageDir,
    mainEntryPointFilePath: join(packageDir, entry.types),
    bundledPackages: [],
    newlineKind: "lf",
    compiler: {
      overrideTsconfig: {
        compilerOptions: { target: "ES2022", lib: ["ES2023"], module: "NodeNext", moduleResolution: "NodeNext", strict: true, skipLibCheck: true, types: ["node"] },
        files: [join(packageDir, entry.types)],
      },
      skipLibCheck: true,
    },
    apiReport: { enabled: true, reportFileName: entry.name, reportFolder: outDir, reportTempFolder: join(outDir, "temp"), includeForgottenExports: false },
    docModel: { enabled: true, apiJsonFilePath: join(outDir, `${entry.name}.api.json`), includeForgottenExports: false },
    dtsRollup: { enabled: false },
    tsdocMetadata: { enabled: false },
    messages: {
      compilerMessageReporting: { default: { logLevel: ExtractorLogLevel.Error } },
      extractorMessageReporting: {
        default: { logLevel: ExtractorLogLevel.Warning, addToApiReportFile: true },
        // An entry's signatures may name types that another entry of the package exports (one home per name).
        "ae-forgotten-export": { logLevel: ExtractorLogLevel.None, addToApiReportFile: false },
        // Every export is public; there are no release tags.
        "ae-missing-release-tag": { logLevel: ExtractorLogLevel.None, addToApiReportFile: false },
        "ae-undocumented": { logLevel: ExtractorLogLevel.None, addToApiReportFile: false },
        // {@link} in doc comments may name something of another entry.
        "ae-unresolved-link": { logLevel: ExtractorLogLevel.None, addToApiReportFile: false },
        // Some dependencies ship .ts sources as their types (@langchain/protocol); they are not ours to report.
        "ae-wrong-input-file-type": { logLevel: ExtractorLogLevel.None, addToApiReportFile: false },
      },
      // Doc comments are plain prose with {@link} to names that may live in another entry, not strict TSDoc.
      tsdocMessageReporting: { default: { logLevel: ExtractorLogLevel.None, addToApiReportFile: false } },
    },
  };
}

/** The reports of every entry of one package (all entries must belong to it), generated into a temporary folder. */
export function extractPackage(repoRoot: string, entries: readonly PackageEntry[]): EntryReport[] {
  const first = entries[0];
  if (first === undefined) return [];
  const outDir = mkdtempSync(join(tmpdir(), "ce-api-"));
  mkdirSync(join(outDir, "temp"));
  try {
    const packageJsonFullPath = join(repoRoot, first.packageDir, "package.json");
    const configs = entries.map((entry) =>
      ExtractorConfig.prepare({ configObject: configFor(repoRoot, entry, outDir), configObjectFullPath: undefined, packageJsonFullPath }),
    );
    const compilerState = CompilerState.create(configs[0]!, { additionalEntryPoints: configs.map((c) => c.mainEntryPointFilePath) });
    return entries.map((entry, i) => {
      const problems: string[] = [];
      const result = Extractor.invoke(configs[i]!, {
        localBuild: true,
        compilerState,
        messageCallback: (message: ExtractorMessage) => {
          const serious = message.logLevel === ExtractorLogLevel.Error || message.logLevel === ExtractorLogLevel.Warning;
          if (serious && message.category !== ExtractorMessageCategory.Console) problems.push(message.formatMessageWithLocation(repoRoot));
          message.handled = true;
        },
      });
      if (!result.succeeded || problems.length > 0) throw new Error(`API Extractor failed for ${entry.specifier}:\n${problems.join("\n")}`);
      return {
        entry,
        reportPath: join(entry.packageDir, REPORT_FOLDER, `${entry.name}.api.md`),
        report: readFileSync(join(outDir, `${entry.name}.api.md`), "utf8"),
        docModel: JSON.parse(readFileSync(join(outDir, `${entry.name}.api.json`), "utf8")) as DocModel,
      };
    });
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}
