import { type ComponentProps, lazy, Suspense, useState } from "react";

const ReportDialog = lazy(() => import("./ReportDialog.tsx").then((m) => ({ default: m.ReportDialog })));

/**
 * The Report an Issue dialog, loaded the first time it opens and kept mounted after: its form code (the
 * form library and the request schema) stays off the first load of the pages that offer it.
 */
export function LazyReportDialog(props: ComponentProps<typeof ReportDialog>) {
  const [opened, setOpened] = useState(false);
  if (props.open && !opened) setOpened(true);
  if (!props.open && !opened) return null;
  return (
    <Suspense fallback={null}>
      <ReportDialog {...props} />
    </Suspense>
  );
}
