// The tables a scene produces, held in memory: named columns of numbers or of text.
//
// A scene fills a table the way it would write a CSV file, with typed cells:
//   SceneTable& t = out.table("e3-pyramid.csv");
//   t << "weighting,t_s,ground_over_mg\n";          // the first line is the header
//   t << weighting << ',' << w.t << ',' << g << '\n'; // a number is kept as a double
// ',' ends a cell and '\n' ends a row; other characters make a text cell; a cell with nothing in
// it is blank (NaN in a number column, empty in CSV). Numbers never pass through text: the
// command line writes the tables as CSV files (17 significant digits) and the Python module hands
// the number columns to NumPy as they are.
#pragma once

#include <deque>
#include <ostream>
#include <sstream>
#include <utility>
#include <string>
#include <vector>

namespace impulse::course {

struct SceneColumn {
  std::string name;                // from the header, e.g. "t_s" (unit in the suffix)
  bool is_text = false;            // decided by the first non-blank cell
  std::vector<double> numbers;     // one per row when !is_text (NaN where blank)
  std::vector<std::string> texts;  // one per row when is_text ("" where blank)
};

class SceneTable {
 public:
  explicit SceneTable(std::string file_name) : file_name_(std::move(file_name)) {}

  SceneTable& operator<<(double x);
  SceneTable& operator<<(float x) { return *this << double(x); }
  SceneTable& operator<<(int x) { return *this << double(x); }
  SceneTable& operator<<(long x) { return *this << double(x); }
  SceneTable& operator<<(long long x) { return *this << double(x); }
  SceneTable& operator<<(unsigned long x) { return *this << double(x); }
  SceneTable& operator<<(unsigned long long x) { return *this << double(x); }
  SceneTable& operator<<(bool x) { return *this << double(x); }
  SceneTable& operator<<(char c);
  SceneTable& operator<<(const char* s);
  SceneTable& operator<<(const std::string& s) { return *this << s.c_str(); }

  /// A comment line written above the header ("# " + text) in the CSV file: what a reader of the
  /// file must know about its numbers (a run that diverges on purpose, say).
  void note(const std::string& text) { notes_.push_back(text); }
  const std::vector<std::string>& notes() const { return notes_; }

  const std::string& file_name() const { return file_name_; }  // "e3-pyramid.csv"
  const std::vector<SceneColumn>& columns() const { return columns_; }
  std::vector<SceneColumn>& columns() { return columns_; }
  std::size_t rows() const { return rows_; }

  /// Writes the header and the rows as CSV. Throws std::logic_error if a row is unfinished.
  void write_csv(std::ostream& os) const;

 private:
  void end_cell();
  void end_row();

  std::string file_name_;
  std::vector<std::string> notes_;
  std::vector<SceneColumn> columns_;
  std::size_t rows_ = 0;
  bool header_done_ = false;
  // The cell being filled.
  std::size_t cell_ = 0;     // column index of the current cell
  bool has_number_ = false;
  double number_ = 0;
  std::string text_;
};

/// Every table of one scene run, in the order the scene made them.
class SceneOutput {
 public:
  /// A new, empty table; throws std::logic_error when the scene already made one of that name.
  SceneTable& table(const std::string& file_name);
  const std::deque<SceneTable>& tables() const { return tables_; }
  std::deque<SceneTable>& tables() { return tables_; }
  /// A text file that is not a table (an LCP for `impulse lcp`, say): filled like a stream and
  /// written beside the tables. Throws std::logic_error for a name already used.
  std::ostringstream& text(const std::string& file_name);
  const std::deque<std::pair<std::string, std::ostringstream>>& texts() const { return texts_; }
  /// Writes each table into dir/file_name (creating dir); throws std::runtime_error naming a path
  /// that cannot be written.
  void write_csv_files(const std::string& dir) const;

 private:
  std::deque<SceneTable> tables_;  // a deque: references returned by table() stay valid
  std::deque<std::pair<std::string, std::ostringstream>> texts_;
};

}  // namespace impulse::course
