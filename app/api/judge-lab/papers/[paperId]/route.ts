import { apiRoute } from "@/server/http/route";
import { readCalibration } from "@/server/judge/lab/calibration";

/** A paper's calibration (staff): overrides of the judge with reasons, addendum versions, F1 by addendum version. */
export const GET = apiRoute<{ paperId: string }>({ staff: true }, async ({ params, store }) =>
  readCalibration(store, params.paperId),
);
