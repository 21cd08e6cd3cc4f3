import { AccessDenied } from "@/components/layout/access-denied";
import { ImportFolderForm } from "@/components/papers/import-folder-form";
import { PaperForm } from "@/components/papers/paper-form";
import { requireStaffPage } from "@/server/auth/page-access";

export const metadata = { title: "New paper" };

export default async function NewPaperPage() {
  const staff = await requireStaffPage("/papers/new");
  if (!staff) return <AccessDenied reason="Only staff create papers." />;
  return (
    <div className="mx-auto grid max-w-5xl gap-8 lg:grid-cols-[1fr_20rem]">
      <div>
        <h1 className="mb-4 text-2xl font-semibold">New paper</h1>
        <PaperForm mode="create" />
      </div>
      <ImportFolderForm />
    </div>
  );
}
