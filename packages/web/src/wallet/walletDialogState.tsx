import { createContext, type ReactNode, useContext, useMemo, useState } from "react";

type WalletDialogState = {
  open: boolean;
  setOpen: (open: boolean) => void;
  openWalletDialog: () => void;
};

const WalletDialogContext = createContext<WalletDialogState | null>(null);

export function WalletDialogProvider({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const value = useMemo(() => ({ open, setOpen, openWalletDialog: () => setOpen(true) }), [open]);
  return <WalletDialogContext value={value}>{children}</WalletDialogContext>;
}

export function useWalletDialog(): WalletDialogState {
  const state = useContext(WalletDialogContext);
  if (!state) throw new Error("useWalletDialog must be used inside <WalletDialogProvider>");
  return state;
}
