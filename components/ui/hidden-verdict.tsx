import { EyeOff, Lock } from "lucide-react";

/** Why a grading's verdict is hidden from a reviewer, said once for the tree, the leaf panel and the badges. */
export const BLIND_REVIEW_HINT = "Blind review: the verdict shows once you commit your score";

/** The mark of a hidden verdict: blind review (an eye struck through) or outside the reviewer's assignment (a lock). */
export function HiddenVerdictIcon({ blind, size }: { blind: boolean; size: number }) {
  return blind ? <EyeOff size={size} aria-hidden /> : <Lock size={size} aria-hidden />;
}
