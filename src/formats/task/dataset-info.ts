/** arktype model of `dataset.yaml` (spec §0.2): only a version. */
import "../schema/ark-setup.ts";
import { type } from "arktype";
import type { ModelInfo } from "../schema/model-info.ts";
import { VERSION_PATTERN } from "../patterns.ts";

export const datasetInfoModel = type({
  "+": "reject",
  version: type(new RegExp(VERSION_PATTERN)).describe("Dataset version, such as demo-v1; recorded in the manifest."),
});

export const datasetInfoModels: ModelInfo[] = [
  { name: "DatasetInfo", title: "SSEBench dataset info", description: "A dataset's dataset.yaml, next to its task folders.", fields: ["version"] },
];
