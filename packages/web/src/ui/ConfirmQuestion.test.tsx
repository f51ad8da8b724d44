import { fireEvent, render, screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { ConfirmQuestion } from "./ConfirmQuestion.tsx";

describe("ConfirmQuestion", () => {
  it("asks the question with Yes and 'Keep it in market', the safe answer focused", () => {
    const onYes = vi.fn();
    const onNo = vi.fn();
    render(
      <ConfirmQuestion
        label="Cancel Auction"
        question="Are you going to cancel your auction?"
        onYes={onYes}
        onNo={onNo}
      />,
    );
    const question = screen.getByRole("alertdialog", { name: "Cancel Auction" });
    expect(question.getAttribute("aria-describedby")).toBeTruthy();
    expect(document.getElementById(question.getAttribute("aria-describedby") ?? "")?.textContent).toBe(
      "Are you going to cancel your auction?",
    );
    const keep = within(question).getByRole("button", { name: "Keep it in market" });
    expect(document.activeElement).toBe(keep);
    fireEvent.click(within(question).getByRole("button", { name: "Yes" }));
    expect(onYes).toHaveBeenCalledTimes(1);
    expect(onNo).not.toHaveBeenCalled();
    fireEvent.click(keep);
    expect(onNo).toHaveBeenCalledTimes(1);
  });

  it("keeps things as they are on Escape, and takes another word for it", () => {
    const onNo = vi.fn();
    render(<ConfirmQuestion label="All" question="Cancel all?" onYes={vi.fn()} onNo={onNo} no="Keep them" />);
    const keep = screen.getByRole("button", { name: "Keep them" });
    fireEvent.keyDown(keep, { key: "Escape" });
    expect(onNo).toHaveBeenCalledTimes(1);
  });

  it("takes no answer twice while the action runs", () => {
    const onYes = vi.fn();
    const onNo = vi.fn();
    render(<ConfirmQuestion label="Unlist" question="Sure?" onYes={onYes} onNo={onNo} busy />);
    const yes = screen.getByRole("button", { name: "Yes" }) as HTMLButtonElement;
    expect(yes.disabled).toBe(true);
    expect(yes.getAttribute("aria-busy")).toBe("true");
    expect((screen.getByRole("button", { name: "Keep it in market" }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    fireEvent.keyDown(yes, { key: "Escape" });
    expect(onNo).not.toHaveBeenCalled();
  });
});
